import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import SqliteDatabase from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { Migrator } from 'kysely/migration'
import { migrationsWith, openHostDb } from '../../src/host/db/index.js'
import { groupKeyContext, seal, secretContext, unseal, WrongHostKeyError } from '../../src/host/secrets/sealed.js'
import { HostKeyError, loadHostKey, readHostKeyFile, writeNewHostKeyFile } from '../../src/host/secrets/host-key.js'
import { rotateHostKey } from '../../src/host/secrets/rotate-key.js'

const dirs: string[] = []
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-sealed-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

/** Every byte the database keeps on disk: the file and its WAL. */
const rawBytes = (dataDir: string) =>
  Buffer.concat(['host.sqlite', 'host.sqlite-wal'].map((f) => path.join(dataDir, f)).filter(fs.existsSync).map((f) => fs.readFileSync(f)))

/** A database as hosts before migration 008 left it: keys in plain hex. */
async function preSealedDatabase(dataDir: string) {
  const plain = { signingKey: randomBytes(32).toString('hex'), groupTokenSecret: randomBytes(32).toString('hex'), group: randomBytes(32).toString('hex') }
  // The tables as they were before 008 (rotationKeyHex), which the current schema type no longer has.
  const db = new Kysely<{ host_secret: { name: string; value: string }; group: Record<string, string> }>({ dialect: new SqliteDialect({ database: new SqliteDatabase(path.join(dataDir, 'host.sqlite')) }) })
  const migrator = new Migrator({ db, provider: { getMigrations: async () => Object.fromEntries(Object.entries(migrationsWith(randomBytes(32))).filter(([n]) => n < '005')) } })
  const { error } = await migrator.migrateToLatest()
  if (error) throw error
  await db
    .insertInto('host_secret')
    .values([
      { name: 'signingKey', value: plain.signingKey },
      { name: 'groupTokenSecret', value: plain.groupTokenSecret },
      { name: 'serviceDid', value: 'did:plc:abcdefghijklmnopqrstuvwx' },
    ])
    .execute()
  await db
    .insertInto('group')
    .values({ did: 'did:plc:groupgroupgroupgroupgrou', handle: 'g.groups.test', joinPolicy: 'open', rotationKeyHex: plain.group, createdAt: new Date().toISOString() })
    .execute()
  await db.destroy()
  return plain
}

describe('sealing', () => {
  it('opens with the key and context it was sealed with, and with nothing else', () => {
    const key = randomBytes(32)
    const sealed = seal(key, Buffer.from('secret'), 'host_secret:a')
    expect(unseal(key, sealed, 'host_secret:a').toString()).toBe('secret')
    expect(() => unseal(randomBytes(32), sealed, 'host_secret:a')).toThrow(WrongHostKeyError)
    // Copied into another row, it does not open.
    expect(() => unseal(key, sealed, 'host_secret:b')).toThrow(WrongHostKeyError)
  })
})

describe('migration 008', () => {
  it('seals the plaintext keys of an existing database on its first start with a key, and leaves none on disk', async () => {
    const dir = tempDir()
    const plain = await preSealedDatabase(dir)
    expect(rawBytes(dir).includes(plain.signingKey)).toBe(true) // the test can see plaintext when it is there
    const key = randomBytes(32)
    const db = await openHostDb(dir, key)
    const secrets = Object.fromEntries((await db.selectFrom('host_secret').selectAll().execute()).map((r) => [r.name, r.value]))
    expect(secrets.serviceDid).toBe('did:plc:abcdefghijklmnopqrstuvwx')
    expect(unseal(key, secrets.signingKey!, secretContext('signingKey')).toString('hex')).toBe(plain.signingKey)
    expect(unseal(key, secrets.groupTokenSecret!, secretContext('groupTokenSecret')).toString('hex')).toBe(plain.groupTokenSecret)
    const group = await db.selectFrom('group').selectAll().executeTakeFirstOrThrow()
    expect(unseal(key, group.rotationKeySealed, groupKeyContext(group.did)).toString('hex')).toBe(plain.group)
    await db.destroy()
    const raw = rawBytes(dir)
    for (const hex of Object.values(plain)) {
      expect(raw.includes(hex), 'plaintext hex on disk').toBe(false)
      expect(raw.includes(Buffer.from(hex, 'hex')), 'raw key bytes on disk').toBe(false)
    }
  })

  it('refuses a wrong key at start with a message that says so', async () => {
    const dir = tempDir()
    await preSealedDatabase(dir)
    await (await openHostDb(dir, randomBytes(32))).destroy()
    await expect(openHostDb(dir, randomBytes(32))).rejects.toThrow(/host key does not open .* encrypted with another key/)
  })
})

describe('the host key', () => {
  it('comes from --key-file or CONVENE_HOST_KEY, and there is no silent default', () => {
    const dir = tempDir()
    const file = path.join(dir, 'host.key')
    writeNewHostKeyFile(file)
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
    expect(loadHostKey({ keyFile: file, env: {} })).toHaveLength(32)
    expect(() => writeNewHostKeyFile(file)).toThrow() // never overwrites a key
    expect(loadHostKey({ env: { CONVENE_HOST_KEY: randomBytes(32).toString('base64') } })).toHaveLength(32)
    expect(() => loadHostKey({ env: {} })).toThrow(HostKeyError)
    expect(() => loadHostKey({ env: { CONVENE_HOST_KEY: 'short' } })).toThrow(HostKeyError)
    expect(() => readHostKeyFile(file, dir)).toThrow(/inside the data directory/)
  })

  it('rotates: every stored key re-sealed with the new key, the old key no longer opens the database', async () => {
    const dir = tempDir()
    const keys = tempDir()
    const plain = await preSealedDatabase(dir)
    writeNewHostKeyFile(path.join(keys, 'old.key'))
    writeNewHostKeyFile(path.join(keys, 'new.key'))
    const oldKey = readHostKeyFile(path.join(keys, 'old.key'))
    const newKey = readHostKeyFile(path.join(keys, 'new.key'))
    await (await openHostDb(dir, oldKey)).destroy()
    // A wrong old key changes nothing.
    await expect(rotateHostKey({ dataDir: dir, keyFile: path.join(keys, 'new.key'), newKeyFile: path.join(keys, 'old.key') })).rejects.toThrow(WrongHostKeyError)
    expect(await rotateHostKey({ dataDir: dir, keyFile: path.join(keys, 'old.key'), newKeyFile: path.join(keys, 'new.key') })).toEqual({ secrets: 3, groups: 1 })
    await expect(openHostDb(dir, oldKey)).rejects.toThrow(WrongHostKeyError)
    const db = await openHostDb(dir, newKey)
    const group = await db.selectFrom('group').selectAll().executeTakeFirstOrThrow()
    expect(unseal(newKey, group.rotationKeySealed, groupKeyContext(group.did)).toString('hex')).toBe(plain.group)
    await db.destroy()
  })
})
