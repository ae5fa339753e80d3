import { sql, type Kysely } from 'kysely'

/**
 * What a row was before a queued action changed it in place (a role given or taken, an
 * edit, an RSVP): JSON of `{ view, pendingAction, prior }`, so cancelling (or undoing)
 * that action puts the row back at once, even while the host is not answering, instead
 * of leaving it marked pending until the group can be read again. Null when the row is
 * as the host last said, or was new.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE item ADD COLUMN prior TEXT`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE item DROP COLUMN prior`.execute(db)
}
