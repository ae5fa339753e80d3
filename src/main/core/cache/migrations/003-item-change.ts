import { sql, type Kysely } from 'kysely'

/** Changes kept per list: enough to patch a kept copy after any action or small sync. */
export const CHANGES_KEPT = 1000

/**
 * Which item each revision step (migration 002) touched, so a reader holding a sorted
 * copy of a long list can patch the few rows that changed instead of reading and
 * sorting 10,000 again. Written by the same triggers, in the same statement order, so
 * step n of a list always has its row here; only the last CHANGES_KEPT steps per list
 * are kept (a reader further behind reads the list whole).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE item_change (groupDid TEXT NOT NULL, kind TEXT NOT NULL, n INTEGER NOT NULL, key TEXT NOT NULL, PRIMARY KEY (groupDid, kind, n)) WITHOUT ROWID`.execute(db)
  await replaceRevisionTriggers(db, { log: true })
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The triggers keep their revision step and lose the log: migration 002's shape.
  await replaceRevisionTriggers(db, { log: false })
  await sql`DROP TABLE item_change`.execute(db)
}

/** Migration 002's triggers, written again with or without the change log. */
async function replaceRevisionTriggers(db: Kysely<unknown>, opts: { log: boolean }): Promise<void> {
  for (const [event, row] of [
    ['INSERT', 'NEW'],
    ['UPDATE', 'NEW'],
    ['DELETE', 'OLD'],
  ] as const) {
    const name = `item_revision_${event.toLowerCase()}`
    // OR REPLACE: a write must never fail for the log's sake (the log is only a shortcut).
    const log = `INSERT OR REPLACE INTO item_change (groupDid, kind, n, key)
           SELECT groupDid, kind, n, ${row}.key FROM item_revision WHERE groupDid = ${row}.groupDid AND kind = ${row}.kind;
           DELETE FROM item_change WHERE groupDid = ${row}.groupDid AND kind = ${row}.kind
             AND n <= (SELECT n FROM item_revision WHERE groupDid = ${row}.groupDid AND kind = ${row}.kind) - ${CHANGES_KEPT};`
    await sql.raw(`DROP TRIGGER ${name}`).execute(db)
    await sql
      .raw(
        `CREATE TRIGGER ${name} AFTER ${event} ON item BEGIN
           INSERT INTO item_revision (groupDid, kind, n) VALUES (${row}.groupDid, ${row}.kind, 1)
           ON CONFLICT (groupDid, kind) DO UPDATE SET n = n + 1;
           ${opts.log ? log : ''}
         END`,
      )
      .execute(db)
  }
}
