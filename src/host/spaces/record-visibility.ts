import type { Kysely, Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import type { Viewer } from '../groups/access.js'
import { spaceOfRecord, takenDownAmong } from '../moderation/takedowns.js'
import { canRead, spaceFromRow, type Space } from './space.js'

type Db = Kysely<HostDatabaseSchema> | Transaction<HostDatabaseSchema>

/**
 * One reader of a group's records, as every path that serves a record sees them: the
 * spaces their roles may read, and whether they hold `mod.read`. Made once per call.
 */
export interface RecordReader {
  groupDid: string
  /** Addresses of the spaces (of those the reader was made for) whose `readableBy` holds one of the reader's roles. */
  readable: ReadonlySet<string>
  /** Holds `mod.read`: still served records a moderator took down, marked, so the decision can be reviewed and reversed. */
  moderator: boolean
}

/** The reader `viewer` is for records in `spaces` (the one space a read method names, say). */
export function recordReader(viewer: Viewer, groupDid: string, spaces: Space[]): RecordReader {
  return {
    groupDid,
    readable: new Set(spaces.filter((s) => s.groupDid === groupDid && canRead(s, viewer)).map((s) => s.uri)),
    moderator: viewer.isMember && viewer.actions.has('mod.read'),
  }
}

/** The reader `viewer` is for records anywhere in the group (a subject, a change stream's entries). */
export async function groupRecordReader(db: Db, groupDid: string, viewer: Viewer): Promise<RecordReader> {
  const rows = await db.selectFrom('space').selectAll().where('groupDid', '=', groupDid).execute()
  return recordReader(viewer, groupDid, rows.map(spaceFromRow))
}

/**
 * What one reader is served of one record in the group's spaces:
 *
 * - `shown`: the record as it is;
 * - `shownTakenDown`: a moderator took it down, and the reader holds `mod.read`: shown,
 *   marked `takenDown`;
 * - `takenDown`: taken down, and the reader is not a moderator: not served at all;
 * - `unreadable`: not in a space of the group whose `readableBy` holds one of the
 *   reader's roles (a space that does not exist included): neither served nor
 *   shown to exist, whoever asks, moderators too.
 *
 * The one rule for getRecord, listRecords, listMemberRecords, getSubject and any change
 * stream that carries records: pure, so a caller that already knows whether the record
 * is taken down (a change entry) decides exactly as the read methods do.
 */
export type RecordVisibility = 'shown' | 'shownTakenDown' | 'takenDown' | 'unreadable'

export function recordVisibility(reader: RecordReader, uri: string, takenDown: boolean): RecordVisibility {
  const space = spaceOfRecord(reader.groupDid, uri)
  if (!space || !reader.readable.has(space)) return 'unreadable'
  if (!takenDown) return 'shown'
  return reader.moderator ? 'shownTakenDown' : 'takenDown'
}

/** Whether the reader is served the record's content (marked or not). */
export const isServed = (v: RecordVisibility) => v === 'shown' || v === 'shownTakenDown'

/**
 * The records of `records` (each named by its address) this reader is served, in the
 * same order, those a moderator took down marked `takenDown: true`. One query for the
 * takedowns of the whole list.
 */
export async function servedRecords<T extends { uri: string }>(db: Db, reader: RecordReader, records: T[]): Promise<(T & { takenDown?: true })[]> {
  const takenDown = await takenDownAmong(db, reader.groupDid, records.map((r) => r.uri))
  return records.flatMap((r) => {
    const visibility = recordVisibility(reader, r.uri, takenDown.has(r.uri))
    if (visibility === 'shown') return [r]
    if (visibility === 'shownTakenDown') return [{ ...r, takenDown: true as const }]
    return []
  })
}
