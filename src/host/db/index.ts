import fs from 'node:fs'
import path from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { Kysely, SqliteDialect, type SqliteDatabase as KyselySqliteDatabase } from 'kysely'
import { Migrator, type Migration } from 'kysely/migration'
import type { HostDatabaseSchema } from './schema.js'
import * as m001 from './migrations/001-init.js'
import * as m002 from './migrations/002-membership.js'
import * as m004 from './migrations/004-spaces.js'
import * as m005 from './migrations/005-member-records.js'
import * as m006 from './migrations/006-service-jti.js'
import * as m007 from './migrations/007-bans.js'
import { sealedKeysMigration } from './migrations/008-sealed-keys.js'
import * as m009oauth from './migrations/009-oauth.js'
import * as m010 from './migrations/010-moderation.js'
import { checkHostKey, scrubOldValues } from '../secrets/stored-secrets.js'

export type HostDb = Kysely<HostDatabaseSchema>

/**
 * Migrations in order; add new ones at the end, never edit a released one. 008 seals
 * the stored keys, so it is made with the host key of this start.
 */
const migrationsWith = (hostKey: Buffer): Record<string, Migration> => ({
  '001-init': m001,
  '002-membership': m002,
  '004-spaces': m004,
  '005-member-records': m005,
  '006-service-jti': m006,
  '007-bans': m007,
  '008-sealed-keys': sealedKeysMigration(hostKey),
  '009-oauth': m009oauth,
  '010-moderation': m010,
})

/** How many distinct SQL texts keep their prepared statement. */
const STATEMENT_CACHE_SIZE = 500

/**
 * The database as Kysely's SQLite driver sees it, with each distinct SQL text prepared
 * once: the driver prepares every query afresh, and preparing costs more than running
 * most of this host's queries. Kysely's SQL is parameterized, so a handful of texts
 * cover every request; the driver runs a statement to completion (`all` or `run`)
 * before the next, so reusing one is safe. (Kysely's `.stream()` would iterate one
 * instead, and two streams of the same SQL at once would collide: this host does not
 * stream.)
 */
function withStatementCache(sqlite: SqliteDatabase.Database): KyselySqliteDatabase {
  const statements = new Map<string, SqliteDatabase.Statement>()
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let stmt = statements.get(sql)
      if (!stmt) {
        stmt = sqlite.prepare(sql)
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!)
        statements.set(sql, stmt)
      }
      return stmt
    },
  }
}

/**
 * Opens (creating if needed) the host's SQLite database in `dataDir`, in WAL mode with
 * full fsync so that an acknowledged write survives a SIGKILL, and checks that
 * `hostKey` is the key its secrets are sealed with (src/host/secrets).
 */
export async function openHostDb(dataDir: string, hostKey: Buffer): Promise<HostDb> {
  fs.mkdirSync(dataDir, { recursive: true })
  const sqlite = new SqliteDatabase(path.join(dataDir, 'host.sqlite'))
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = FULL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  const db = new Kysely<HostDatabaseSchema>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) })
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrationsWith(hostKey) },
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    await db.destroy()
    throw error
  }
  try {
    if (results?.some((r) => r.migrationName === '008-sealed-keys' && r.status === 'Success')) await scrubOldValues(db)
    await checkHostKey(db, hostKey)
  } catch (err) {
    await db.destroy()
    throw err
  }
  return db
}
