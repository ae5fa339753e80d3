import { randomUUID } from 'node:crypto'
import type { Transaction } from 'kysely'
import { RateLimitExceededError } from '@atproto/xrpc-server'
import type { HostDatabaseSchema } from '../db/schema.js'
import { recordChange } from '../changes.js'
import { waitInWords } from '../limits/refusal.js'

type Tx = Transaction<HostDatabaseSchema>

/** The window one person's requests to one group are counted in, and how long a decided one is kept. */
const WINDOW_MS = 24 * 3600 * 1000

/**
 * Requests one person may make to one group in a day. Asking, withdrawing and asking
 * again is normal a few times over; past this, each round would only add rows and
 * change-log entries for the group's admins to scroll past.
 */
export const REQUESTS_PER_DAY = 10

/**
 * Makes a pending request for `did` (who has none pending), in the caller's transaction,
 * which must hold the group's lock (groupTransaction), so the count below holds. A
 * request is kept pending for as long as it takes; once decided or withdrawn, nothing
 * reads it again (the change log keeps its id), so it is deleted a day after, when the
 * group's next request is made. With at most REQUESTS_PER_DAY a day, one person keeps
 * at most about that many rows per group, however often they cycle.
 */
export async function openJoinRequest(tx: Tx, groupDid: string, did: string, message: string | null, now: string): Promise<string> {
  const dayAgo = new Date(Date.parse(now) - WINDOW_MS).toISOString()
  await tx.deleteFrom('join_request').where('groupDid', '=', groupDid).where('decidedAt', '<', dayAgo).execute()

  const recent = await tx
    .selectFrom('join_request')
    .select('createdAt')
    .where('groupDid', '=', groupDid)
    .where('did', '=', did)
    .where('createdAt', '>=', dayAgo)
    .orderBy('createdAt')
    .execute()
  if (recent.length >= REQUESTS_PER_DAY) {
    const msBeforeNext = Date.parse(recent[0]!.createdAt) + WINDOW_MS - Date.parse(now)
    throw new RateLimitExceededError(
      { limit: REQUESTS_PER_DAY, duration: WINDOW_MS / 1000, remainingPoints: 0, msBeforeNext, consumedPoints: recent.length, isFirstInDuration: false },
      `You have asked to join this group ${recent.length} times in the last day, the most this host allows; you may ask again ${waitInWords(msBeforeNext)}`,
    )
  }

  const id = randomUUID()
  await tx
    .insertInto('join_request')
    .values({ id, groupDid, did, message, invite: null, status: 'pending', createdAt: now, decidedAt: null, decidedBy: null })
    .execute()
  await recordChange(tx, groupDid, 'joinRequest.created', id)
  return id
}
