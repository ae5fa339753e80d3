import { cborEncode, type LexValue } from '@atproto/lex-cbor'
import { lexToIpld, type LexValue as LexiconValue } from '@atproto/lexicon'
import { isValidNsid, isValidRecordKey } from '@atproto/syntax'
import { refuse } from '../errors.js'

/** The largest record the group's repo keeps, encoded (a PDS's own limit is of this order). */
export const MAX_RECORD_BYTES = 100 * 1024

/** What a record must be for each collection, beyond `$type`: the fields Bluesky's app reads first. */
const REQUIRED: Record<string, { rkey?: string; strings?: string[]; maxText?: number }> = {
  'app.bsky.feed.post': { strings: ['text', 'createdAt'], maxText: 3000 },
  'app.bsky.actor.profile': { rkey: 'self' },
  'app.bsky.feed.threadgate': { strings: ['post', 'createdAt'] },
}

/**
 * Checks a record before it is committed. The app.bsky lexicons are not part of this
 * host (no package here carries them), so the check is the part that keeps the repo
 * readable: a record of its collection's `$type`, a valid rkey (`self` for the profile),
 * the required strings, and a bounded size. Refusals are `InvalidRequest`, naming the field.
 * Answers the record as @atproto/repo commits it (the body arrives as lexicon values,
 * blob refs as BlobRef).
 */
export function checkRecord(collection: string, rkey: string, record: Record<string, unknown>): RepoRecord {
  if (!isValidNsid(collection)) throw refuse('InvalidRequest', `"${collection}" is not a collection name (an NSID)`)
  if (!isValidRecordKey(rkey)) throw refuse('InvalidRequest', `"${rkey}" is not a valid record key`)
  if (record.$type !== collection) throw refuse('InvalidRequest', `The record's $type must be "${collection}", its collection`)
  const rule = REQUIRED[collection] ?? {}
  if (rule.rkey && rkey !== rule.rkey) throw refuse('InvalidRequest', `A ${collection} record's key must be "${rule.rkey}"`)
  for (const field of rule.strings ?? []) {
    if (typeof record[field] !== 'string') throw refuse('InvalidRequest', `A ${collection} record needs "${field}" (a string)`)
  }
  if (rule.maxText && typeof record.text === 'string' && [...record.text].length > rule.maxText) {
    throw refuse('InvalidRequest', `The text is longer than ${rule.maxText} characters`)
  }
  let value: RepoRecord
  let size: number
  try {
    value = lexToIpld(record as LexiconValue) as RepoRecord
    size = cborEncode(value).byteLength
  } catch (err) {
    throw refuse('InvalidRequest', `The record is not valid atproto data: ${(err as Error).message}`)
  }
  if (size > MAX_RECORD_BYTES) throw refuse('InvalidRequest', `The record is ${size} bytes; the group's repo takes up to ${MAX_RECORD_BYTES}`)
  return value
}

/** A record as the repo keeps it (DAG-CBOR's data model). */
export type RepoRecord = { [key: string]: LexValue }
