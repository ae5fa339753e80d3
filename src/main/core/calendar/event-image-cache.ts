import { sql, type Kysely, type Transaction } from 'kysely'
import type { CacheSchema } from '../cache/cache-db.js'

type Db = Kysely<CacheSchema> | Transaction<CacheSchema>

/** The provisional key a queued picture's bytes are kept under until the host's copy is read. */
export const pendingImageKey = (outboxId: number) => `pending:${outboxId}`

/** A data: URL of one of the four image types the window shows, and nothing else. */
const IMAGE_URL = /^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/]+={0,2}$/

/** The CIDs whose bytes the cache holds for the group's events: a sync fetches only others. */
export async function heldImageCids(db: Db, groupDid: string): Promise<Set<string>> {
  const rows = await db.selectFrom('event_image').select('cid').where('groupDid', '=', groupDid).execute()
  return new Set(rows.map((r) => r.cid))
}

/** Keeps images' bytes (data: URLs) by CID; one already held is left as it is (a CID names its bytes). */
export async function keepEventImages(tx: Db, groupDid: string, urls: ReadonlyMap<string, string>, now = new Date().toISOString()): Promise<void> {
  for (const [cid, url] of urls) {
    await tx.insertInto('event_image').values({ groupDid, cid, url, fetchedAt: now }).onConflict((oc) => oc.columns(['groupDid', 'cid']).doUpdateSet({ url, fetchedAt: now })).execute()
  }
}

/**
 * Drops the group's images no cached event names any more (a replaced or removed picture,
 * a sent one's provisional copy): run after a sync has written the events and re-applied
 * still-queued actions, so a picture waiting to be sent keeps its bytes.
 */
export async function dropUnnamedImages(tx: Db, groupDid: string): Promise<void> {
  await sql`DELETE FROM event_image WHERE groupDid = ${groupDid} AND cid NOT IN (
    SELECT json_extract(view, '$.image.cid') FROM item WHERE groupDid = ${groupDid} AND kind = 'event' AND json_extract(view, '$.image.cid') IS NOT NULL
  )`.execute(tx)
}

/** One image's bytes as a data: URL, from the cache only (works offline), or null when not held. */
export async function readEventImage(db: Db, groupDid: string, cid: string): Promise<{ url: string } | null> {
  const row = await db.selectFrom('event_image').select('url').where('groupDid', '=', groupDid).where('cid', '=', cid).executeTakeFirst()
  return row && IMAGE_URL.test(row.url) ? { url: row.url } : null
}
