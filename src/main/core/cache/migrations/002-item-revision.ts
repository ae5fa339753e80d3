import { sql, type Kysely } from 'kysely'

/**
 * A counter per (group, kind of item) that SQLite itself moves on every insert, update
 * or delete of a cached item. Readers that keep a sorted copy of a long list in memory
 * (the members pages) compare it to know when that copy went stale, whichever code
 * path wrote the item: sync, a queued action, or its replay.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE item_revision (groupDid TEXT NOT NULL, kind TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (groupDid, kind))`.execute(db)
  for (const [event, row] of [
    ['INSERT', 'NEW'],
    ['UPDATE', 'NEW'],
    ['DELETE', 'OLD'],
  ] as const) {
    await sql
      .raw(
        `CREATE TRIGGER item_revision_${event.toLowerCase()} AFTER ${event} ON item BEGIN
           INSERT INTO item_revision (groupDid, kind, n) VALUES (${row}.groupDid, ${row}.kind, 1)
           ON CONFLICT (groupDid, kind) DO UPDATE SET n = n + 1;
         END`,
      )
      .execute(db)
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const event of ['insert', 'update', 'delete']) await sql.raw(`DROP TRIGGER item_revision_${event}`).execute(db)
  await sql`DROP TABLE item_revision`.execute(db)
}
