import { isValidDid } from '@atproto/syntax'
import type { Transaction } from 'kysely'
import type { HostDatabaseSchema, SubjectStatus, SubjectTable } from '../db/schema.js'
import type * as Defs from '../lexicon/types/example/groups/defs.js'
import { refuse } from '../errors.js'

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
    if (!input.uri.startsWith('at://')) throw refuse('InvalidRequest', 'A record subject needs an at:// address')
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
  return {
    subject: JSON.parse(row.subject) as SubjectRef,
    status: row.status,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    reportCount: row.reportCount,
  }
}

/** Moderation history: report {reasonType, reason?}, status {status, note?}, eject {note?, ban?}. */
export async function recordModerationEvent(
  tx: Transaction<HostDatabaseSchema>,
  ev: { groupDid: string; subjectKey: string; kind: 'report' | 'status' | 'eject'; data: Record<string, unknown>; createdBy: string },
): Promise<void> {
  await tx
    .insertInto('moderation_event')
    .values({ ...ev, data: JSON.stringify(ev.data), createdAt: new Date().toISOString() } as never)
    .execute()
}
