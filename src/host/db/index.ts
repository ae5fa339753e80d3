import fs from 'node:fs'
import path from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { Kysely, SqliteDialect, type SqliteDatabase as KyselySqliteDatabase } from 'kysely'
import { Migrator, type Migration } from 'kysely/migration'
import { cidForLex, type LexValue } from '@atproto/lex-cbor'
import type { HostDatabaseSchema } from './schema.js'
import * as m001 from './migrations/001-init.js'
import * as m002 from './migrations/002-membership.js'
import { wellKnownSpacesMigration } from './migrations/004-spaces.js'
import * as m005 from './migrations/005-member-records.js'
import * as m006 from './migrations/006-service-jti.js'
import * as m007 from './migrations/007-bans.js'
import { sealedKeysMigration } from './migrations/008-sealed-keys.js'
import * as m009oauth from './migrations/009-oauth.js'
import * as m010 from './migrations/010-moderation.js'
import * as m012 from './migrations/012-rate-counters.js'
import * as m014 from './migrations/014-member-records-where-read.js'
import * as m015 from './migrations/015-bounded-tables.js'
import * as m017 from './migrations/017-live-team-work.js'
import * as m018 from './migrations/018-group-creator.js'
import * as m019 from './migrations/019-change-actor.js'
import * as m021 from './migrations/021-group-avatar.js'
import * as m024 from './migrations/024-invitee-invites.js'
import * as m025 from './migrations/025-group-repo.js'
import * as m026 from './migrations/026-event-standing.js'
import * as m027 from './migrations/027-space-blobs.js'
import * as m028 from './migrations/028-record-blobs.js'
import * as m029 from './migrations/029-blob-takedowns.js'
import * as m030 from './migrations/030-outstanding-invites.js'
import * as m031 from './migrations/031-space-record-totals.js'
import * as m032 from './migrations/032-spaces-per-group.js'
import * as m033 from './migrations/033-answered-invites.js'
import * as m034 from './migrations/034-repo-takedowns.js'
import * as m035 from './migrations/035-invites-by-inviter.js'
import * as m036 from './migrations/036-repo-bounds.js'
import * as m037 from './migrations/037-subject-pins.js'
import { checkHostKey, scrubOldValues } from '../secrets/stored-secrets.js'
import { GroupCommitDialect } from './group-commit.js'
import { isPostgresUrl, openPostgres } from './postgres.js'
import { isPostgres, whileNoOtherStarts } from './dialect.js'
import { speedupOff } from '../baseline.js'

export type HostDb = Kysely<HostDatabaseSchema>

/** A plain JSON record's CID: the DAG-CBOR encoding atproto commits (migration 004). */
const recordCid = async (record: Record<string, unknown>) => (await cidForLex(record as LexValue)).toString()

/**
 * Migrations in order; add new ones at the end, never edit a released one. 008 seals
 * the stored keys, so it is made with the host key of this start; 004 writes records,
 * so it is given how atproto computes a record's CID.
 */
export const migrationsWith = (hostKey: Buffer): Record<string, Migration> => ({
  '001-init': m001,
  '002-membership': m002,
  '004-spaces': wellKnownSpacesMigration(recordCid),
  '005-member-records': m005,
  '006-service-jti': m006,
  '007-bans': m007,
  '008-sealed-keys': sealedKeysMigration(hostKey),
  '009-oauth': m009oauth,
  '010-moderation': m010,
  '012-rate-counters': m012,
  '014-member-records-where-read': m014,
  '015-bounded-tables': m015,
  '017-live-team-work': m017,
  '018-group-creator': m018,
  '019-change-actor': m019,
  '021-group-avatar': m021,
  '024-invitee-invites': m024,
  '025-group-repo': m025,
  '026-event-standing': m026,
  '027-space-blobs': m027,
  '028-record-blobs': m028,
  '029-blob-takedowns': m029,
  '030-outstanding-invites': m030,
  '031-space-record-totals': m031,
  '032-spaces-per-group': m032,
  '033-answered-invites': m033,
  '034-repo-takedowns': m034,
  '035-invites-by-inviter': m035,
  '036-repo-bounds': m036,
  '037-subject-pins': m037,
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
function statementCache(sqlite: SqliteDatabase.Database): (sql: string) => SqliteDatabase.Statement {
  const statements = new Map<string, SqliteDatabase.Statement>()
  return (sql: string) => {
    let stmt = statements.get(sql)
    if (!stmt) {
      stmt = sqlite.prepare(sql)
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!)
      statements.set(sql, stmt)
    }
    return stmt
  }
}

/**
 * Migrations and the start-up checks run on Kysely's plain SQLite driver (statement by
 * statement, VACUUM allowed); the host then serves through group commit (group-commit.ts)
 * unless the bench asks for the baseline. Both share the one connection, one at a time.
 */
async function prepareSqlite(sqlite: SqliteDatabase.Database, prepare: (sql: string) => SqliteDatabase.Statement, hostKey: Buffer): Promise<void> {
  const database: KyselySqliteDatabase = { close: () => {}, prepare }
  const db = new Kysely<HostDatabaseSchema>({ dialect: new SqliteDialect({ database }) })
  try {
    await migrateAndCheck(db, hostKey)
  } finally {
    await db.destroy()
  }
}

/**
 * PostgreSQL: pending migrations run together in one transaction, under Kysely's advisory lock, so
 * several host processes starting at once migrate once. No scrub: a new PostgreSQL
 * database never held plaintext keys (migration 008 only renames there).
 */
async function openPostgresHostDb(url: string, hostKey: Buffer): Promise<HostDb> {
  const db = await openPostgres(url)
  try {
    await whileNoOtherStarts(db, () => migrateAndCheck(db, hostKey))
  } catch (err) {
    await db.destroy()
    throw err
  }
  return db
}

async function migrateAndCheck(db: HostDb, hostKey: Buffer): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrationsWith(hostKey) },
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error
  if (!isPostgres(db) && results?.some((r) => r.migrationName === '008-sealed-keys' && r.status === 'Success')) await scrubOldValues(db)
  await checkHostKey(db, hostKey)
}

/**
 * Opens (creating if needed) the host's SQLite database in `dataDir`, in WAL mode with
 * full fsync so that an acknowledged write survives a SIGKILL, and checks that
 * `hostKey` is the key its secrets are sealed with (src/host/secrets). Serving, writes
 * are group-committed (group-commit.ts); one-shot tools pass `groupCommit: false`.
 */
export async function openHostDb(dataDir: string, hostKey: Buffer, opts: { groupCommit?: boolean; url?: string } = {}): Promise<HostDb> {
  if (isPostgresUrl(opts.url)) return openPostgresHostDb(opts.url, hostKey)
  fs.mkdirSync(dataDir, { recursive: true })
  const sqlite = new SqliteDatabase(path.join(dataDir, 'host.sqlite'))
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = FULL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  const prepare = statementCache(sqlite)
  try {
    await prepareSqlite(sqlite, prepare, hostKey)
  } catch (err) {
    sqlite.close()
    throw err
  }
  const dialect = opts.groupCommit === false || speedupOff('group-commit') ? new SqliteDialect({ database: { close: () => sqlite.close(), prepare } }) : new GroupCommitDialect(sqlite, prepare)
  return new Kysely<HostDatabaseSchema>({ dialect })
}
