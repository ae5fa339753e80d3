import type { Kysely, Transaction } from 'kysely'
import type { HostDatabaseSchema, JoinRequestTable } from '../db/schema.js'
import type * as Defs from '../../node/lexicon/types/example/groups/defs.js'
import { refuse } from '../errors.js'
import { recordChange, type ChangeKind } from '../changes.js'

type Db = Kysely<HostDatabaseSchema>
type Tx = Transaction<HostDatabaseSchema>

/** A stored request as the lexicons show it (`example.groups.defs#joinRequest`). */
export function joinRequestView(row: JoinRequestTable): Defs.JoinRequest {
  return {
    id: row.id,
    did: row.did,
    createdAt: row.createdAt,
    ...(row.message !== null ? { message: row.message } : {}),
    ...(row.invite !== null ? { invite: row.invite } : {}),
  }
}

/** The caller's own pending request, if they have one. */
export function pendingRequestOf(db: Db, groupDid: string, did: string): Promise<JoinRequestTable | undefined> {
  return db.selectFrom('join_request').selectAll().where('groupDid', '=', groupDid).where('did', '=', did).where('status', '=', 'pending').executeTakeFirst()
}

/**
 * A page of the pending requests, oldest first: the order an admin works through them.
 * Two can share a millisecond, so the sort key is the creation time and then the id.
 */
export function pendingRequests(db: Db, groupDid: string, after: readonly [string, string] | undefined, limit: number): Promise<JoinRequestTable[]> {
  let query = db.selectFrom('join_request').selectAll().where('groupDid', '=', groupDid).where('status', '=', 'pending')
  if (after) {
    const [createdAt, id] = after
    query = query.where((eb) => eb.or([eb('createdAt', '>', createdAt), eb.and([eb('createdAt', '=', createdAt), eb('id', '>', id)])]))
  }
  return query.orderBy('createdAt').orderBy('id').limit(limit).execute()
}

export const requestKey = (row: JoinRequestTable) => [row.createdAt, row.id] as const

type Outcome = 'admitted' | 'denied' | 'cancelled'
const CHANGE_OF: Record<Outcome, ChangeKind> = {
  admitted: 'joinRequest.admitted',
  denied: 'joinRequest.denied',
  cancelled: 'joinRequest.cancelled',
}

/**
 * Decides whatever request `did` has pending, with the change-log entry of that outcome,
 * and answers the requests it decided (none: nothing was pending). The update is
 * conditional on the request still being pending, so of two deciders at once exactly one
 * wins, and a withdrawal racing a decision cannot undo it. `by` is null when nobody
 * decided by hand (an invite or an open group let the person in).
 */
export async function decidePending(tx: Tx, groupDid: string, did: string, outcome: Outcome, now: string, by: string | null, invite?: string): Promise<string[]> {
  const decided = await tx
    .updateTable('join_request')
    .set({ status: outcome, decidedAt: now, decidedBy: by, ...(invite !== undefined ? { invite } : {}) })
    .where('groupDid', '=', groupDid)
    .where('did', '=', did)
    .where('status', '=', 'pending')
    .returning('id')
    .execute()
  for (const request of decided) await recordChange(tx, groupDid, CHANGE_OF[outcome], request.id)
  return decided.map((r) => r.id)
}

/** The caller withdraws their own pending request (`RequestNotFound` if none is pending). */
export async function cancelJoinRequest(tx: Tx, groupDid: string, caller: string): Promise<void> {
  const withdrawn = await decidePending(tx, groupDid, caller, 'cancelled', new Date().toISOString(), caller)
  if (!withdrawn.length) throw refuse('RequestNotFound', 'You have no pending request to join this group')
}
