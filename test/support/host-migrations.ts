import { randomBytes } from 'node:crypto'
import SqliteDatabase from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { Migrator } from 'kysely/migration'
import { migrationsWith } from '../../src/host/db/index.js'
import type { HostDatabaseSchema } from '../../src/host/db/schema.js'

/**
 * An in-memory host database as it stood just before migration `name` (the host's own
 * list, src/host/db/index.ts, in its order), for a test that writes rows in the old
 * shape; `migrate()` then runs `name` over them.
 */
export async function hostDbBefore(name: string): Promise<{ db: Kysely<HostDatabaseSchema>; migrate(): Promise<void>; migrateToLatest(): Promise<void> }> {
  const all = Object.entries(migrationsWith(randomBytes(32))).sort(([a], [b]) => (a < b ? -1 : 1))
  const at = all.findIndex(([n]) => n === name)
  if (at < 0) throw new Error(`there is no migration ${name}`)
  const db = new Kysely<HostDatabaseSchema>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) })
  const upTo = async (end: number) => {
    const migrations = Object.fromEntries(all.slice(0, end))
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest()
    if (error) throw error
  }
  await upTo(at)
  // Live code runs on the store as a host has it: every migration, not only those up to this one.
  return { db, migrate: () => upTo(at + 1), migrateToLatest: () => upTo(all.length) }
}

/** An in-memory host database with every migration run: the store as the host now has it. */
export async function hostDbAtLatest(): Promise<Kysely<HostDatabaseSchema>> {
  const last = Object.keys(migrationsWith(randomBytes(32))).sort().at(-1)!
  const { db, migrate } = await hostDbBefore(last)
  await migrate()
  return db
}
