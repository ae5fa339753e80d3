import type { Kysely } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import type { Viewer } from '../groups/access.js'
import { parseSpaceRecordAddress } from '../../shared/space-address.js'
import { findStoredRecord } from '../spaces/readers.js'
import { groupRecordReader, isServed, recordVisibility } from '../spaces/record-visibility.js'
import { spaceOfRecord } from './takedowns.js'

/** The words of a post shown in a queue row: enough to know it, not the whole of a long one. */
export const PREVIEW_CHARS = 300

export interface RecordPreview {
  /** The record's `text` (a post of any collection), trimmed; absent when it has none. */
  text?: string
  /** The host no longer has it: deleted since it was reported. */
  gone?: boolean
}

/**
 * For the moderation queue (issue 25 point 3): each reported record in one of the group's
 * spaces as the moderator would be served it, in a line: its `text`, or that it is gone.
 * Records in spaces the moderator's roles may not read get nothing (as getSubject
 * withholds them: whether the host has them is not told), nor do records elsewhere.
 */
export async function recordPreviews(db: Kysely<HostDatabaseSchema>, groupDid: string, viewer: Viewer, subjects: { key: string; takenDown: boolean }[]): Promise<Map<string, RecordPreview>> {
  const out = new Map<string, RecordPreview>()
  const records = subjects.filter((s) => spaceOfRecord(groupDid, s.key))
  if (records.length === 0) return out
  const reader = await groupRecordReader(db, groupDid, viewer)
  for (const s of records) {
    if (!isServed(recordVisibility(reader, s.key, s.takenDown))) continue
    const { space, repo, collection, rkey } = parseSpaceRecordAddress(s.key)!
    const row = await findStoredRecord(db, groupDid, { space, repo, collection, rkey })
    if (!row) {
      out.set(s.key, { gone: true })
      continue
    }
    const text = (JSON.parse(row.value) as { text?: unknown }).text
    if (typeof text === 'string' && text.trim()) out.set(s.key, { text: trimmed(text) })
  }
  return out
}

/** Whitespace folded to single spaces, cut at a word near PREVIEW_CHARS with an ellipsis. */
function trimmed(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= PREVIEW_CHARS) return flat
  const cut = flat.slice(0, PREVIEW_CHARS)
  const space = cut.lastIndexOf(' ')
  return `${space > PREVIEW_CHARS * 0.6 ? cut.slice(0, space) : cut}…`
}
