import type { Kysely, Transaction } from 'kysely'
import type { HostDatabaseSchema, ReportTable } from '../db/schema.js'
import type * as Defs from '../../node/lexicon/types/example/groups/defs.js'

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
 * segment of a space record address `at://<group>/space/<type>/<skey>/<repo>/<collection>/<rkey>`,
 * or the authority of a plain at:// address). Reporters are never shown to them.
 */
export function reportedPerson(subjectKey: string): string {
  if (subjectKey.startsWith('did:')) return subjectKey
  const parts = subjectKey.split('/')
  if (parts[3] === 'space' && parts.length === 9) return parts[6]!
  return parts[2] ?? ''
}

/** Whether someone reading about a subject may see who reported it: anyone but the reported person. */
export const mayKnowReporters = (subjectKey: string, reader: string) => reportedPerson(subjectKey) !== reader

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
