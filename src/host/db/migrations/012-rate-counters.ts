import type { Kysely } from 'kysely'

/**
 * Rate-limit counters in the database (issue 18), so that several host processes on one
 * PostgreSQL database share one limit per caller. A single SQLite process keeps them in
 * memory instead (src/host/limits/window-counter.ts), and leaves this table empty.
 * `resetAt` is in milliseconds: bigint (SQLite's INTEGER either way).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_counter')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('resetAt', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute()
  // Ended windows are swept by it.
  await db.schema.createIndex('rate_counter_reset').on('rate_counter').column('resetAt').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_counter').execute()
}
