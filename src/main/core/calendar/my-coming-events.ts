import { sql, type Kysely } from 'kysely'
import type { CacheSchema } from '../cache/cache-db.js'
import type { MyComingEvent } from '../../../shared/ipc/views.js'
import { eventStatus } from './event-record.js'

/** Events further off than this are not watched: the window is told of changes to what is near. */
const AHEAD_MS = 45 * 86_400_000
/** The most a summary carries, nearest first. */
const MOST = 30

type CachedEvent = { rkey: string; name: string; startsAt: string; endsAt: string | null; status: string | null; myRsvp: string | null; rsvps?: { did: string; standing?: string | null }[] }

/**
 * The events this account answered going to or interested in, not yet over, as the
 * window's notifications compare them from one summary to the next (issue 36: the people
 * coming are told when they get a place, when an event is cancelled or moved, and a day
 * before it starts). Read from the cache, so a change reaches them by whatever brought it
 * (a sync, the live stream); `pending` marks one this account is changing itself.
 */
export async function myComingEvents(db: Kysely<CacheSchema>, groupDid: string, me: string, now = Date.now()): Promise<MyComingEvent[]> {
  const rows = await db
    .selectFrom('item')
    .select(['view', 'pendingAction'])
    .where('groupDid', '=', groupDid)
    .where('kind', '=', 'event')
    .where(sql<string>`json_extract(view, '$.myRsvp')`, 'in', ['going', 'interested'])
    .execute()
  const out: MyComingEvent[] = []
  for (const row of rows) {
    const e = JSON.parse(row.view) as CachedEvent
    const start = Date.parse(e.startsAt)
    if (Number.isNaN(start) || start > now + AHEAD_MS || Date.parse(e.endsAt ?? e.startsAt) < now) continue
    const standing = e.rsvps?.find((r) => r.did === me)?.standing
    out.push({
      rkey: e.rkey,
      name: e.name,
      startsAt: e.startsAt,
      status: eventStatus(e.status),
      myRsvp: e.myRsvp === 'going' ? 'going' : 'interested',
      standing: standing === 'going' || standing === 'waitlisted' ? standing : null,
      pending: row.pendingAction !== null,
    })
  }
  return out.sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt)).slice(0, MOST)
}
