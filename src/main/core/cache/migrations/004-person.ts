import { sql, type Kysely } from 'kysely'

/**
 * Handles of the people in a group's lists that the host names only by DID (join
 * requests, invites), as last verified both ways, and when: so a sync can put them on
 * the rows at once, and each person is looked up again at most once a day.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE person (did TEXT PRIMARY KEY, handle TEXT, checkedAt TEXT NOT NULL) WITHOUT ROWID`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE person`.execute(db)
}
