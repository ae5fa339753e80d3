import type { CacheDb } from '../cache/cache-db.js'

/** Where this account's change stream from a host left off (cache migration 005), or null. */
export async function readLiveCursor(cache: CacheDb, hostUrl: string): Promise<string | null> {
  const row = await cache.selectFrom('live_cursor').select('cursor').where('hostUrl', '=', hostUrl).executeTakeFirst()
  return row?.cursor ?? null
}

/** Keeps the cursor after the last change applied (null forgets it: the next connection starts afresh). */
export async function writeLiveCursor(cache: CacheDb, hostUrl: string, cursor: string | null): Promise<void> {
  if (cursor === null) {
    await cache.deleteFrom('live_cursor').where('hostUrl', '=', hostUrl).execute()
    return
  }
  const updatedAt = new Date().toISOString()
  await cache
    .insertInto('live_cursor')
    .values({ hostUrl, cursor, updatedAt })
    .onConflict((oc) => oc.column('hostUrl').doUpdateSet({ cursor, updatedAt }))
    .execute()
}
