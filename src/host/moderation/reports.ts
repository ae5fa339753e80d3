import type { Kysely, Transaction } from 'kysely'
import type { HostDatabaseSchema, ReportTable } from '../db/schema.js'
import type * as Defs from '../../node/lexicon/types/example/groups/defs.js'
import { parseRecordAddress } from '../../shared/space-address.js'

type Db = Kysely<HostDatabaseSchema> | Transaction<HostDatabaseSchema>

/** atproto's reason types (com.atproto.moderation.defs), which reports are meant to use. */
export const REASON_TYPES = [
  'com.atproto.moderation.defs#reasonSpam',
  'com.atproto.moderation.defs#reasonViolation',
  'com.atproto.moderation.defs#reasonMisleading',
  'com.atproto.moderation.defs#reasonSexual',
  'com.atproto.moderation.defs#reasonRude',
  'com.atproto.moderation.defs#reasonOther',
  'com.atproto.moderation.defs#reasonAppeal',
] as const

/**
 * The person a subject is about: an account's DID, or the author of a record (the repo
 * of its address, in a space or not). Reporters are never shown to them. Null for a key
 * that is neither (subjects are checked when reported, so none should be).
 */
export function reportedPerson(subjectKey: string): string | null {
  if (subjectKey.startsWith('did:')) return subjectKey
  return parseRecordAddress(subjectKey)?.repo ?? null
}

/**
 * Whether someone reading about a subject may see who reported it: anyone but the
 * reported person; no one when who that is cannot be told.
 */
export const mayKnowReporters = (subjectKey: string, reader: string) => {
  const person = reportedPerson(subjectKey)
  return person !== null && person !== reader
}

export function reportView(row: ReportTable, showReporter: boolean): Defs.ReportView {
  return {
    id: row.id,
    reasonType: row.reasonType,
    ...(row.reason ? { reason: row.reason } : {}),
    ...(showReporter ? { reportedBy: row.reportedBy } : {}),
    createdAt: row.createdAt,
  }
}

/** Whether this person has reported this subject before: their repeated reports count once. */
export async function hasReported(db: Db, groupDid: string, subjectKey: string, did: string): Promise<boolean> {
  const row = await db
    .selectFrom('report')
    .select('id')
    .where('groupDid', '=', groupDid)
    .where('subjectKey', '=', subjectKey)
    .where('reportedBy', '=', did)
    .limit(1)
    .executeTakeFirst()
  return !!row
}
