import fs from 'node:fs'
import path from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { Migrator, type Migration } from 'kysely/migration'
import type { HostDatabaseSchema } from './schema.js'
import * as m001 from './migrations/001-init.js'
import * as m002 from './migrations/002-membership.js'
import * as m004 from './migrations/004-spaces.js'

export type HostDb = Kysely<HostDatabaseSchema>

/** Migrations in order; add new ones at the end, never edit a released one. */
const migrations: Record<string, Migration> = {
  '001-init': m001,
  '002-membership': m002,
  '004-spaces': m004,
}

/**
 * Opens (creating if needed) the host's SQLite database in `dataDir`, in WAL mode with
 * full fsync so that an acknowledged write survives a SIGKILL.
 */
export async function openHostDb(dataDir: string): Promise<HostDb> {
  fs.mkdirSync(dataDir, { recursive: true })
  const sqlite = new SqliteDatabase(path.join(dataDir, 'host.sqlite'))
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = FULL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  const db = new Kysely<HostDatabaseSchema>({ dialect: new SqliteDialect({ database: sqlite }) })
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  })
  const { error } = await migrator.migrateToLatest()
  if (error) throw error
  return db
}
