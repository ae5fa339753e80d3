import { randomBytes } from 'node:crypto'
import SqliteDatabase from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { Migrator, type Migration } from 'kysely/migration'
import * as m001 from '../../src/host/db/migrations/001-init.js'
import * as m002 from '../../src/host/db/migrations/002-membership.js'
import * as m004 from '../../src/host/db/migrations/004-spaces.js'
import * as m005 from '../../src/host/db/migrations/005-member-records.js'
import * as m006 from '../../src/host/db/migrations/006-service-jti.js'
import * as m007 from '../../src/host/db/migrations/007-bans.js'
import { sealedKeysMigration } from '../../src/host/db/migrations/008-sealed-keys.js'
import * as m009 from '../../src/host/db/migrations/009-oauth.js'
import * as m010 from '../../src/host/db/migrations/010-moderation.js'
import * as m012 from '../../src/host/db/migrations/012-rate-counters.js'
import * as m014 from '../../src/host/db/migrations/014-member-records-where-read.js'
import * as m015 from '../../src/host/db/migrations/015-bounded-tables.js'
import * as m017 from '../../src/host/db/migrations/017-live-team-work.js'
import * as m018 from '../../src/host/db/migrations/018-group-creator.js'
import type { HostDatabaseSchema } from '../../src/host/db/schema.js'

/** The host's migrations in the order it runs them (src/host/db/index.ts). */
const MIGRATIONS: [string, Migration][] = [
  ['001-init', m001],
  ['002-membership', m002],
  ['004-spaces', m004],
  ['005-member-records', m005],
  ['006-service-jti', m006],
  ['007-bans', m007],
  ['008-sealed-keys', sealedKeysMigration(randomBytes(32))],
  ['009-oauth', m009],
  ['010-moderation', m010],
  ['012-rate-counters', m012],
  ['014-member-records-where-read', m014],
  ['015-bounded-tables', m015],
  ['017-live-team-work', m017],
  ['018-group-creator', m018],
]

/**
 * An in-memory host database as it stood just before migration `name`, for a test that
 * writes rows in the old shape; `migrate()` then runs `name` over them.
 */
export async function hostDbBefore(name: string): Promise<{ db: Kysely<HostDatabaseSchema>; migrate(): Promise<void> }> {
  const at = MIGRATIONS.findIndex(([n]) => n === name)
  if (at < 0) throw new Error(`there is no migration ${name}`)
  const db = new Kysely<HostDatabaseSchema>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) })
  const upTo = async (end: number) => {
    const migrations = Object.fromEntries(MIGRATIONS.slice(0, end))
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest()
    if (error) throw error
  }
  await upTo(at)
  return { db, migrate: () => upTo(at + 1) }
}
