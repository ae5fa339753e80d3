import { sql, type Kysely } from 'kysely'

/**
 * Where each host's live change stream left off for this account (the cursor of the
 * last change applied), so a reconnect, or the next start, resumes there and loses
 * nothing. One row per host; groups keep their own change-log cursors in group_row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE live_cursor (hostUrl TEXT PRIMARY KEY, cursor TEXT NOT NULL, updatedAt TEXT NOT NULL) WITHOUT ROWID`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE live_cursor`.execute(db)
}
