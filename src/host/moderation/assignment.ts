import type { Transaction } from 'kysely'
import type { HostDatabaseSchema, SubjectTable } from '../db/schema.js'
import type * as Defs from '../../node/lexicon/types/example/groups/defs.js'
import { refuse } from '../errors.js'

type Tx = Transaction<HostDatabaseSchema>

/** How long a moderator's hold on a subject lasts unless they take it again. */
export const ASSIGNMENT_MINUTES = 30

type Held = Pick<SubjectTable, 'assignedTo' | 'assignedAt' | 'assignedUntil'>

/**
 * Who has the subject ("I'm on it", Ozone's moderator assignment), while the hold lasts.
 * A hold that ran out is nobody's: it lapses by itself, with no write.
 */
export function assignmentOf(row: Held, now = Date.now()): Defs.Assignment | undefined {
  if (!row.assignedTo || !row.assignedAt || !row.assignedUntil) return undefined
  if (Date.parse(row.assignedUntil) <= now) return undefined
  return { did: row.assignedTo, startAt: row.assignedAt, endAt: row.assignedUntil }
}

/**
 * `moderator` takes the subject for {@link ASSIGNMENT_MINUTES}; taking it again renews
 * the time. Someone else's live hold is `AlreadyAssigned`: they, or anyone who may
 * resolve, release it first (unassign), so nobody's work is taken from them silently.
 */
export async function assignSubject(tx: Tx, row: SubjectTable, moderator: string): Promise<Defs.Assignment> {
  const now = Date.now()
  const nowIso = new Date(now).toISOString()
  const held = assignmentOf(row, now)
  if (held && held.did !== moderator) throw alreadyAssigned(held)
  const assignment = { did: moderator, startAt: held?.startAt ?? nowIso, endAt: new Date(now + ASSIGNMENT_MINUTES * 60_000).toISOString() }
  // Only if nobody else took it meanwhile: two moderators taking it at once on
  // PostgreSQL both read it free, and the second update finds it taken.
  const res = await tx
    .updateTable('subject')
    .set({ assignedTo: assignment.did, assignedAt: assignment.startAt, assignedUntil: assignment.endAt })
    .where('groupDid', '=', row.groupDid)
    .where('subjectKey', '=', row.subjectKey)
    .where((eb) => eb.or([eb('assignedTo', 'is', null), eb('assignedTo', '=', moderator), eb('assignedUntil', '<=', nowIso)]))
    .executeTakeFirst()
  if (Number(res.numUpdatedRows) === 0) {
    const now = await tx.selectFrom('subject').selectAll().where('groupDid', '=', row.groupDid).where('subjectKey', '=', row.subjectKey).executeTakeFirstOrThrow()
    throw alreadyAssigned(assignmentOf(now) ?? { did: now.assignedTo ?? 'someone', startAt: '', endAt: now.assignedUntil ?? '' })
  }
  return assignment
}

function alreadyAssigned(held: Defs.Assignment) {
  return refuse('AlreadyAssigned', `${held.did} has taken this subject until ${held.endAt}; they (or anyone who may resolve it) can unassign it first`)
}

/** Ends any hold on the subject (released by hand, or the subject was resolved); returns whose live hold it was. */
export async function releaseSubject(tx: Tx, row: SubjectTable): Promise<string | undefined> {
  if (!row.assignedTo) return undefined
  await tx
    .updateTable('subject')
    .set({ assignedTo: null, assignedAt: null, assignedUntil: null })
    .where('groupDid', '=', row.groupDid)
    .where('subjectKey', '=', row.subjectKey)
    .execute()
  return assignmentOf(row)?.did
}
