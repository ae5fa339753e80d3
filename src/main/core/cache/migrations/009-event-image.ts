import { sql, type Kysely } from 'kysely'

/**
 * Events' images (issue 27), kept apart from the event rows: the bytes of one image as a
 * data: URL, by group and blob CID, so an events list carries only `{ cid, alt }` and the
 * window asks for each picture once (`groups.eventImage`). A queued image waits here under
 * a provisional key (`pending:<outbox id>`) until the host's copy is read. Rows no event
 * names any more are dropped at each sync (calendar/event-image-cache.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE event_image (
    groupDid TEXT NOT NULL,
    cid TEXT NOT NULL,
    url TEXT NOT NULL,
    fetchedAt TEXT NOT NULL,
    PRIMARY KEY (groupDid, cid)
  ) WITHOUT ROWID`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE event_image`.execute(db)
}
