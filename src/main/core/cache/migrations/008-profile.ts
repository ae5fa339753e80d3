import { sql, type Kysely } from 'kysely'

/**
 * People's profiles (display name, bio, a small avatar as a data: URL, when their DID was
 * registered), read from their own PDS after a sync and kept here, so the lists show names
 * and faces at once on start; `checkedAt` says when each was last read (a failed read
 * leaves the row as it was).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE profile (
    did TEXT PRIMARY KEY,
    displayName TEXT,
    description TEXT,
    avatar TEXT,
    avatarCid TEXT,
    accountCreatedAt TEXT,
    checkedAt TEXT NOT NULL
  ) WITHOUT ROWID`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE profile`.execute(db)
}
