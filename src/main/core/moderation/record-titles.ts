import type { Kysely, Transaction } from 'kysely'
import type { CacheSchema } from '../cache/cache-db.js'
import { readItemsByKey } from '../cache/items.js'
import { parseRecordAddress } from '../../../shared/space-address.js'
import { EVENT_COLLECTION } from '../calendar/calendar-space.js'

type Db = Kysely<CacheSchema> | Transaction<CacheSchema>

export interface RecordTitle {
  kind: 'event'
  name: string
  startsAt: string | null
}

/**
 * Reported records as what they are, for the queue: a calendar event the cache holds is
 * shown by its name and start, never by its at:// address. Records the cache does not
 * know are left out (the window describes them in plain words).
 */
export async function recordTitles(db: Db, groupDid: string, uris: string[]): Promise<Map<string, RecordTitle>> {
  const rkeys = new Map<string, string>()
  for (const uri of uris) {
    const r = parseRecordAddress(uri)
    if (r?.collection === EVENT_COLLECTION && r.repo === groupDid) rkeys.set(r.rkey, uri)
  }
  const out = new Map<string, RecordTitle>()
  if (rkeys.size === 0) return out
  for (const e of await readItemsByKey<{ rkey: string; name: string; startsAt: string }>(db, groupDid, 'event', [...rkeys.keys()])) {
    const uri = rkeys.get(e.rkey)
    if (uri && e.name) out.set(uri, { kind: 'event', name: e.name, startsAt: e.startsAt || null })
  }
  return out
}
