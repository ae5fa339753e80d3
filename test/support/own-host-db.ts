import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { openHostDb, type HostDb } from '../../src/host/db/index.js'
import { createDatabaseAt } from '../../src/stack/postgres-cluster.js'

/**
 * A host database of the test file's own, without a host around it, opened as the host
 * opens it: SQLite in a temporary folder, or a new database on the run's throwaway
 * PostgreSQL cluster in the PostgreSQL run (CONVENE_TEST_PG_URL). `use` gets it before
 * the file's tests run; it is closed and its folder removed after them.
 */
export function useOwnHostDb(opts: { groupCommit?: boolean }, use: (db: HostDb) => void) {
  let db: HostDb | undefined
  let dir: string | undefined
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-host-db-'))
    const admin = process.env.CONVENE_TEST_PG_URL
    db = await openHostDb(dir, crypto.randomBytes(32), { ...opts, ...(admin ? { url: await createDatabaseAt(admin) } : {}) })
    use(db)
  })
  afterAll(async () => {
    await db?.destroy()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })
}
