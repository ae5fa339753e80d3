import { isValidDid } from '@atproto/syntax'
import type { Kysely, Transaction } from 'kysely'
import type { HostDatabaseSchema, SubjectStatus, SubjectTable } from '../db/schema.js'
import type * as Defs from '../../node/lexicon/types/example/groups/defs.js'
import { refuse } from '../errors.js'
import { parseRecordAddress } from '../../shared/space-address.js'
import { mayKnowReporters, reportView } from './reports.js'
import { takenDownAmong } from './takedowns.js'
import { assignmentOf } from './assignment.js'
import type { ModerationEvent } from '../../shared/moderation-events.js'

export const SUBJECT_STATUSES: readonly SubjectStatus[] = ['open', 'escalated', 'resolved']

export type SubjectRef = ({ $type: 'example.groups.defs#subjectAccount' } & Defs.SubjectAccount) | ({ $type: 'example.groups.defs#subjectRecord' } & Defs.SubjectRecord)

/**
 * A moderation subject from a call's open union, normalized: the `$type` must name one
 * of the two subject kinds. The key (an account's DID, a record's at:// address) is what
 * reports about the same thing share; a record's `cid` only says which version was seen.
 */
export function parseSubject(union: { $type: string }): { key: string; subject: SubjectRef } {
  const input = union as { $type: string; did?: unknown; uri?: unknown; cid?: unknown }
  if (input.$type === 'example.groups.defs#subjectAccount' && typeof input.did === 'string' && isValidDid(input.did)) {
    return { key: input.did, subject: { $type: input.$type, did: input.did } }
  }
  if (input.$type === 'example.groups.defs#subjectRecord' && typeof input.uri === 'string') {
    // A record's own address and nothing else: a handle, a bare repo or a query would
    // each make a subject of their own for one record, splitting its reports, and junk
    // keys would fill the moderators' queue.
    if (!parseRecordAddress(input.uri)) {
      throw refuse('InvalidRequest', 'A record subject needs a record’s at:// address: at://<did>/<collection NSID>/<record key>')
    }
    const cid = typeof input.cid === 'string' ? input.cid : undefined
    return { key: input.uri, subject: { $type: input.$type, uri: input.uri, ...(cid ? { cid } : {}) } }
  }
  throw refuse('InvalidRequest', 'The subject must be an account {did} (example.groups.defs#subjectAccount) or a record {uri, cid?} (example.groups.defs#subjectRecord)')
}

export function parseStatus(status: string): SubjectStatus {
  if (!(SUBJECT_STATUSES as readonly string[]).includes(status)) {
    throw refuse('InvalidRequest', `Unknown status "${status}": use one of ${SUBJECT_STATUSES.join(', ')}`)
  }
  return status as SubjectStatus
}

/** The `subject` item of `listSubjects`, as `example.groups.defs#subject` has it. */
export function subjectView(row: SubjectTable): Defs.Subject {
  const assignedTo = assignmentOf(row)
  return {
    subject: JSON.parse(row.subject) as SubjectRef,
    status: row.status,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    reportCount: row.reportCount,
    ...(assignedTo ? { assignedTo } : {}),
    ...(row.pinnedBy && row.pinnedAt ? { pinned: { by: row.pinnedBy, at: row.pinnedAt } } : {}),
  }
}

/**
 * Subjects as moderators read them: besides the row, the newest report (its reporter
 * hidden from the reported person), the reason types reported, and whether a takedown
 * is in force. Three queries for a whole page, not three per subject.
 */
export async function subjectViews(db: Kysely<HostDatabaseSchema> | Transaction<HostDatabaseSchema>, groupDid: string, rows: SubjectTable[], reader: string): Promise<Defs.Subject[]> {
  const keys = rows.map((r) => r.subjectKey)
  if (keys.length === 0) return []
  const newest = await db
    .selectFrom('report')
    .selectAll()
    .where('id', 'in', (eb) => eb.selectFrom('report').select((e) => e.fn.max('id').as('id')).where('groupDid', '=', groupDid).where('subjectKey', 'in', keys).groupBy('subjectKey'))
    .execute()
  const reasons = await db.selectFrom('report').select(['subjectKey', 'reasonType']).distinct().where('groupDid', '=', groupDid).where('subjectKey', 'in', keys).orderBy('reasonType').execute()
  const takenDown = await takenDownAmong(db, groupDid, keys)
  return rows.map((row) => {
    const last = newest.find((r) => r.subjectKey === row.subjectKey)
    return {
      ...subjectView(row),
      takenDown: takenDown.has(row.subjectKey),
      reasonTypes: reasons.filter((r) => r.subjectKey === row.subjectKey).map((r) => r.reasonType),
      ...(last ? { lastReport: reportView(last, mayKnowReporters(row.subjectKey, reader)) } : {}),
    }
  })
}

/** The subject row, or `SubjectNotFound`: only reported things are subjects. */
export async function requireSubject(db: Kysely<HostDatabaseSchema> | Transaction<HostDatabaseSchema>, groupDid: string, key: string): Promise<SubjectTable> {
  const row = await db.selectFrom('subject').selectAll().where('groupDid', '=', groupDid).where('subjectKey', '=', key).executeTakeFirst()
  if (!row) throw refuse('SubjectNotFound', 'Nobody has reported that to this group')
  return row
}

export type ModerationEventKind = 'report' | 'status' | 'eject' | ModerationEvent

/** Moderation history: report {reasonType, reason?}, status {status, note?}, eject {note?, ban?}. */
export async function recordModerationEvent(
  tx: Transaction<HostDatabaseSchema>,
  ev: { groupDid: string; subjectKey: string; kind: ModerationEventKind; data: Record<string, unknown>; createdBy: string },
): Promise<void> {
  await tx
    .insertInto('moderation_event')
    .values({ ...ev, data: JSON.stringify(ev.data), createdAt: new Date().toISOString() } as never)
    .execute()
}
