import { sql, type Kysely } from 'kysely'

/**
 * Each queued action keeps its own back-off, so a restart does not send at once what a
 * host down a minute ago refused, and one group's unreachable host waits alone:
 * `failures` counts the tries a transient failure cut short (network, 5xx, a host not
 * answering; a sign-in that ended does not count), `nextAttemptAt` is when the next one
 * is due (ISO time; null: at the next pass). The index serves "the next action of this
 * group", read for every send.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE outbox ADD COLUMN failures INTEGER NOT NULL DEFAULT 0`.execute(db)
  await sql`ALTER TABLE outbox ADD COLUMN nextAttemptAt TEXT`.execute(db)
  await sql`CREATE INDEX outbox_group_state ON outbox (groupDid, state, id)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX outbox_group_state`.execute(db)
  await sql`ALTER TABLE outbox DROP COLUMN nextAttemptAt`.execute(db)
  await sql`ALTER TABLE outbox DROP COLUMN failures`.execute(db)
}
