import fs from 'node:fs'
import path from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import SqliteDatabase from 'better-sqlite3'
import { Secp256k1Keypair } from '@atproto/crypto'
import { useLocalNetwork } from '../../support/local-network.js'
import { hostKeyFile } from '../../support/host-db.js'
import { createIdResolver } from '../../../src/node/id-resolver.js'
import { groupKeyContext, secretContext, unseal } from '../../../src/host/secrets/sealed.js'
import { readHostKeyFile, writeNewHostKeyFile } from '../../../src/host/secrets/host-key.js'
import { REPO_ROOT } from '../../../src/stack/stack.js'

const net = useLocalNetwork()
const hostDir = () => path.join(net.running.dataDir, 'host')

/** The key columns as stored, read straight from host.sqlite. */
function storedKeys(): { context: string; value: string }[] {
  const db = new SqliteDatabase(path.join(hostDir(), 'host.sqlite'), { readonly: true, fileMustExist: true })
  try {
    const secrets = db.prepare("SELECT name, value FROM host_secret WHERE name != 'serviceDid'").all() as { name: string; value: string }[]
    const groups = db.prepare('SELECT did, rotationKeySealed FROM "group"').all() as { did: string; rotationKeySealed: string }[]
    return [
      ...secrets.map((s) => ({ context: secretContext(s.name), value: s.value })),
      ...groups.map((g) => ({ context: groupKeyContext(g.did), value: g.rotationKeySealed })),
    ]
  } finally {
    db.close()
  }
}

/** Every byte the host keeps on disk under its data directory. */
const rawBytes = () =>
  Buffer.concat(fs.readdirSync(hostDir()).filter((f) => f.startsWith('host.sqlite')).map((f) => fs.readFileSync(path.join(hostDir(), f))))

const callWorks = async () => (await net.as('owner').call('example.groups.getGroup', { params: { group: net.group('open').did } })).status

describe('keys at rest', () => {
  it('keeps no private key material in plain in host.sqlite', async () => {
    const key = readHostKeyFile(hostKeyFile(net.running))
    const stored = storedKeys()
    // The service signing and rotation keys, the two token secrets, a key check and the three seeded groups.
    expect(stored.length).toBeGreaterThanOrEqual(8)
    const raw = rawBytes()
    for (const { context, value } of stored) {
      expect(value, context).toMatch(/^v1:[A-Za-z0-9+/]+=*$/)
      // As stored, it is no key: not hex, and not importable as one.
      expect(/^[0-9a-f]{64}$/.test(value), context).toBe(false)
      await expect(Secp256k1Keypair.import(value), context).rejects.toThrow()
      const plain = unseal(key, value, context)
      expect(raw.includes(plain), `${context}: raw bytes on disk`).toBe(false)
      expect(raw.includes(plain.toString('hex')), `${context}: hex on disk`).toBe(false)
      expect(raw.includes(plain.toString('base64')), `${context}: base64 on disk`).toBe(false)
    }
    // What is sealed is the real key: the one the host's DID document publishes.
    const signing = await Secp256k1Keypair.import(unseal(key, stored.find((s) => s.context === secretContext('signingKey'))!.value, secretContext('signingKey')))
    expect(await createIdResolver(net.stack.plc).did.resolveAtprotoKey(net.stack.host.serviceDid)).toBe(signing.did())
    expect(raw.includes(fs.readFileSync(hostKeyFile(net.running), 'utf8').trim())).toBe(false)
  })

  it('restarts with the same key, and refuses to start with a wrong one, saying why', async () => {
    await net.running.restartHost()
    expect(await callWorks()).toBe(200)

    const keyFile = hostKeyFile(net.running)
    const right = fs.readFileSync(keyFile)
    fs.rmSync(keyFile)
    writeNewHostKeyFile(keyFile)
    try {
      await expect(net.running.restartHost()).rejects.toThrow(/host key does not open .* encrypted with another key/)
    } finally {
      fs.writeFileSync(keyFile, right, { mode: 0o600 })
    }
    await net.running.restartHost()
    expect(await callWorks()).toBe(200)
  })

  it('rotates the key with `npm run host -- rotate-key`: the host comes back on the new key, the old one opens nothing', async () => {
    const keyFile = hostKeyFile(net.running)
    const newKeyFile = path.join(net.running.dataDir, 'host.key.new')
    const oldKey = readHostKeyFile(keyFile)
    let output = ''
    await net.running.restartHost({
      whileDown: async () => {
        writeNewHostKeyFile(newKeyFile)
        const run = await promisify(execFile)(
          process.execPath,
          ['--import', 'tsx', 'src/host/bin.ts', 'rotate-key', '--data-dir', hostDir(), '--key-file', keyFile, '--new-key-file', newKeyFile],
          { cwd: REPO_ROOT },
        )
        output = run.stderr
        fs.renameSync(newKeyFile, keyFile)
      },
    })
    expect(output).toMatch(/re-encrypted \d+ host secrets and 3 group keys/)
    expect(await callWorks()).toBe(200)
    const newKey = readHostKeyFile(keyFile)
    for (const { context, value } of storedKeys()) {
      expect(() => unseal(oldKey, value, context), context).toThrow()
      expect(unseal(newKey, value, context).length, context).toBeGreaterThan(0)
    }
  })
})
