import type { Transaction } from 'kysely'
import type { HostDatabaseSchema, SubjectStatus, SubjectTable } from '../db/schema.js'
import type * as Defs from '../../node/lexicon/types/example/groups/defs.js'
import { refuse } from '../errors.js'
import { recordChange } from '../changes.js'
import type { Viewer } from '../groups/access.js'
import { applyTakedown, statusAfter, type ModerationAction } from './actions.js'
import { assignSubject, releaseSubject } from './assignment.js'
import { recordModerationEvent, requireSubject, subjectViews } from './subjects.js'

type Tx = Transaction<HostDatabaseSchema>

/**
 * A moderator's event on a reported subject (`emitModerationEvent`), kept in its history
 * with who and when (`SubjectNotFound` for anything not reported). Taking down an
 * account ejects and bans, which also needs `eject`. Answers the subject as it is after.
 */
export async function moderate(
  tx: Tx,
  groupDid: string,
  viewer: Viewer,
  key: string,
  action: ModerationAction,
  note: string | undefined,
  idempotencyKey?: string,
): Promise<Defs.Subject> {
  const row = await requireSubject(tx, groupDid, key)
  // The same event with the same key from the same moderator is already in the history:
  // a replay of it (its answer was lost) is answered with the subject as it now is.
  if (idempotencyKey && (await alreadyEmitted(tx, groupDid, key, action, viewer.did, idempotencyKey))) {
    const [view] = await subjectViews(tx, groupDid, [row], viewer.did)
    return view!
  }
  const ban = action === 'takedown' || action === 'reverseTakedown' ? await applyTakedown(tx, groupDid, viewer, key, action, note) : false
  const held = await holdAfter(tx, row, action, viewer.did)
  const status = statusAfter(action)
  await tx
    .updateTable('subject')
    .set({ ...(status ? { status } : {}), ...pinAfter(row, action, viewer.did), updatedAt: new Date().toISOString() })
    .where('groupDid', '=', groupDid)
    .where('subjectKey', '=', key)
    .execute()
  await recordModerationEvent(tx, {
    groupDid,
    subjectKey: key,
    kind: action,
    data: { ...(note ? { note } : {}), ...(ban ? { ban: true } : {}), ...held, ...(idempotencyKey ? { idempotencyKey } : {}) },
    createdBy: viewer.did,
  })
  await recordChange(tx, groupDid, 'subject.updated', key)
  const [view] = await subjectViews(tx, groupDid, [await requireSubject(tx, groupDid, key)], viewer.did)
  return view!
}

/**
 * Sets a subject's status directly (`updateSubject`, for older clients). A decision ends
 * any moderator's hold on the subject, as resolving through `moderate` does.
 */
export async function setSubjectStatus(tx: Tx, groupDid: string, key: string, status: SubjectStatus, note: string | undefined, by: string): Promise<void> {
  const res = await tx
    .updateTable('subject')
    .set({ status, updatedAt: new Date().toISOString() })
    .where('groupDid', '=', groupDid)
    .where('subjectKey', '=', key)
    .executeTakeFirst()
  if (Number(res.numUpdatedRows) === 0) throw refuse('SubjectNotFound', 'Nobody has reported that to this group')
  if (status === 'resolved') {
    await releaseSubject(tx, await requireSubject(tx, groupDid, key))
    await tx.updateTable('subject').set(UNPINNED).where('groupDid', '=', groupDid).where('subjectKey', '=', key).execute()
  }
  await recordModerationEvent(tx, { groupDid, subjectKey: key, kind: 'status', data: { status, ...(note ? { note } : {}) }, createdBy: by })
  await recordChange(tx, groupDid, 'subject.updated', key)
}

const UNPINNED = { pinnedBy: null, pinnedAt: null }

/**
 * What an event does to the subject's pin at the top of the team's queue: `pin` sets it
 * (a subject already pinned keeps who pinned it first), `unpin` clears it (refused when
 * there is none, as `unassign` is), and a decision (resolve, takedown) ends it.
 */
function pinAfter(row: SubjectTable, action: ModerationAction, caller: string): Partial<Pick<SubjectTable, 'pinnedBy' | 'pinnedAt'>> {
  if (action === 'pin') return row.pinnedAt ? {} : { pinnedBy: caller, pinnedAt: new Date().toISOString() }
  if (action === 'unpin') {
    if (!row.pinnedAt) throw refuse('InvalidRequest', 'This subject is not pinned')
    return UNPINNED
  }
  return statusAfter(action) === 'resolved' ? UNPINNED : {}
}

/**
 * What an event does to a moderator's hold on the subject (assignment.ts): `assign`
 * takes it, `unassign` releases it, and a decision (resolve, takedown) ends it. Returns
 * what the history entry records of it.
 */
async function holdAfter(tx: Tx, row: SubjectTable, action: ModerationAction, caller: string): Promise<{ assignedTo?: string; endAt?: string }> {
  if (action === 'assign') {
    const { did, endAt } = await assignSubject(tx, row, caller)
    return { assignedTo: did, endAt }
  }
  if (action === 'unassign') {
    const released = await releaseSubject(tx, row)
    if (!released) throw refuse('InvalidRequest', 'Nobody has taken this subject')
    return { assignedTo: released }
  }
  if (statusAfter(action) === 'resolved') await releaseSubject(tx, row)
  return {}
}

/**
 * Whether this moderator already emitted the event this key names on this subject. Read
 * in the event's transaction from the caller's events of that kind on the subject (a
 * handful), compared here rather than in SQL so every database the host runs on answers
 * alike (as createReport's replay check does).
 */
async function alreadyEmitted(tx: Tx, groupDid: string, subjectKey: string, kind: ModerationAction, by: string, key: string): Promise<boolean> {
  const rows = await tx
    .selectFrom('moderation_event')
    .select('data')
    .where('groupDid', '=', groupDid)
    .where('subjectKey', '=', subjectKey)
    .where('kind', '=', kind)
    .where('createdBy', '=', by)
    .execute()
  return rows.some((r) => (JSON.parse(r.data) as { idempotencyKey?: unknown }).idempotencyKey === key)
}
