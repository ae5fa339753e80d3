import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openHostDb } from '../../../src/host/db/index.js'
import { insertSecret, readSecret } from '../../../src/host/secrets/stored-secrets.js'
import { readHostKeyFile, writeNewHostKeyFile } from '../../../src/host/secrets/host-key.js'
import { createDatabaseAt } from '../../../src/stack/postgres-cluster.js'
import { REPO_ROOT } from '../../../src/stack/stack.js'

/**
 * `npm run host -- rotate-key` on the store the run uses: SQLite in --data-dir here, and
 * PostgreSQL through --db in the PostgreSQL run (a host there has no SQLite file to
 * rotate). keys-at-rest.test.ts rotates a whole running stack's SQLite host.
 */
let work: string
let dataDir: string
let url: string | undefined
const storeArgs = () => (url ? ['--db', url] : ['--data-dir', dataDir])
const open = (key: Buffer) => openHostDb(dataDir, key, { groupCommit: false, url })

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-rotate-'))
  dataDir = path.join(work, 'data')
  const admin = process.env.CONVENE_TEST_PG_URL
  url = admin ? await createDatabaseAt(admin) : undefined
})
afterAll(() => fs.rmSync(work, { recursive: true, force: true }))

const rotate = (args: string[]) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/host/bin.ts', 'rotate-key', ...args], { cwd: REPO_ROOT }).then(
    (r) => ({ code: 0, stderr: r.stderr }),
    (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
  )

describe('rotate-key', () => {
  it('re-seals the stored keys with the new key: the host opens with it, and no longer with the old one', async () => {
    const oldFile = path.join(work, 'old.key')
    const newFile = path.join(work, 'new.key')
    writeNewHostKeyFile(oldFile)
    writeNewHostKeyFile(newFile)
    const secret = crypto.randomBytes(32)
    const before = await open(readHostKeyFile(oldFile))
    await insertSecret(before, readHostKeyFile(oldFile), 'signingKey', secret)
    await before.destroy()

    // A wrong old key changes nothing, and says so.
    const wrong = path.join(work, 'wrong.key')
    writeNewHostKeyFile(wrong)
    const refused = await rotate([...storeArgs(), '--key-file', wrong, '--new-key-file', newFile])
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toMatch(/host key does not open/)

    const done = await rotate([...storeArgs(), '--key-file', oldFile, '--new-key-file', newFile])
    expect(done.stderr).toMatch(/re-encrypted 2 host secrets and 0 group keys/)
    expect(done.code).toBe(0)

    const after = await open(readHostKeyFile(newFile))
    try {
      expect((await readSecret(after, readHostKeyFile(newFile), 'signingKey'))?.equals(secret)).toBe(true)
    } finally {
      await after.destroy()
    }
    await expect(open(readHostKeyFile(oldFile))).rejects.toThrow(/host key does not open/)
  })

  it('says plainly when --db is not a PostgreSQL URL', async () => {
    const res = await rotate(['--db', 'mysql://example', '--new-key-file', path.join(work, 'new.key')])
    expect(res.code).not.toBe(0)
    expect(res.stderr).toMatch(/--db takes a PostgreSQL URL/)
  })
})
