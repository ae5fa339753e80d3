import type { Kysely, Transaction } from 'kysely'
import { cidForLex, type LexValue } from '@atproto/lex-cbor'
import { lexToIpld, lexToJson, type LexValue as LexiconValue } from '@atproto/lexicon'
import { isValidTid } from '@atproto/syntax'
import type { HostDatabaseSchema } from '../db/schema.js'
import { refuse } from '../errors.js'
import { lexicons } from '../../node/lexicon/lexicons.js'
import { parseSpaceRecordAddress, spaceRecordAddress } from '../../shared/space-address.js'
import { blobRefsIn } from '../repo/blobs.js'
import { hideImagesOf, takenDownAmong } from '../moderation/takedowns.js'

type Tx = Transaction<HostDatabaseSchema>

export interface RecordKey {
  space: string
  repo: string
  collection: string
  rkey: string
}

/** A record ready to store: its JSON form, the CID of its DAG-CBOR encoding, and the images it names. */
export interface PreparedRecord {
  json: string
  cid: string
  /** The CIDs of its blob refs, found while it was checked, so storing it need not parse it again. */
  blobCids: string[]
}

/**
 * Checks a record the group writes and computes its CID. Its `$type` must equal the
 * collection (spec section 2); a collection this host has a lexicon for (calendar
 * events, event images, ...) is validated against it, rkey form included; others are
 * stored as given, as a PDS stores records of lexicons it does not know.
 */
export async function prepareRecord(collection: string, rkey: string, record: Record<string, unknown>): Promise<PreparedRecord> {
  if (record.$type !== collection) {
    throw refuse('InvalidRequest', `The record's $type must equal its collection (${collection})`)
  }
  const def = lexicons.getDef(collection)
  if (def?.type === 'record') {
    const key = def.key ?? 'any'
    if (key === 'tid' && !isValidTid(rkey)) throw refuse('InvalidRequest', `${collection} records take a TID as rkey, not "${rkey}"`)
    if (key.startsWith('literal:') && rkey !== key.slice('literal:'.length)) {
      throw refuse('InvalidRequest', `${collection} records take the rkey "${key.slice('literal:'.length)}"`)
    }
    try {
      lexicons.assertValidRecord(collection, asAtUris(record))
    } catch (err) {
      throw refuse('InvalidRequest', `Not a valid ${collection} record: ${(err as Error).message}`)
    }
  }
  try {
    // The body arrives as lexicon values (blob refs as BlobRef); the CID is over the
    // same DAG-CBOR a PDS would commit for it.
    const cid = await cidForLex(lexToIpld(record as LexiconValue) as LexValue)
    return { json: JSON.stringify(lexToJson(record as LexiconValue)), cid: cid.toString(), blobCids: [...new Set(blobRefsIn(record).map((b) => b.cid))] }
  } catch (err) {
    throw refuse('InvalidRequest', `The record is not valid atproto data: ${(err as Error).message}`)
  }
}

/**
 * The record as lexicon validation should see it: every space record address
 * (`<space>/<repo>/<collection>/<rkey>`, what createRecord hands out) in place of a string
 * stands as the record URI `at://<repo>/<collection>/<rkey>`. A space record address has
 * more path segments than an `at-uri` may, yet it is how an RSVP or an image names the
 * group's event in a space (docs/decisions: "How a record names a record in a space"), so
 * another app that names an event by the address this host gave it is not refused. Only
 * the copy validated changes: what is stored, and hashed, is the record as sent.
 */
function asAtUris(value: unknown): unknown {
  if (typeof value === 'string') {
    const inSpace = value.startsWith('at://') ? parseSpaceRecordAddress(value) : null
    return inSpace ? `at://${inSpace.repo}/${inSpace.collection}/${inSpace.rkey}` : value
  }
  if (Array.isArray(value)) return value.map(asAtUris)
  // Plain objects only: blob refs and CIDs are class instances that validation checks by kind.
  if (value !== null && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asAtUris(v)]))
  }
  return value
}

export const recordUri = (key: RecordKey) => spaceRecordAddress(key.space, key.repo, key.collection, key.rkey)

/**
 * Creates or overwrites a record (inside the caller's transaction). `createOnly` makes
 * an existing record a refusal instead. Returns whether it was created.
 */
export async function storeRecord(
  tx: Tx,
  key: RecordKey,
  prepared: PreparedRecord,
  opts: { now: string; createOnly?: boolean },
): Promise<{ uri: string; created: boolean }> {
  const uri = recordUri(key)
  const existing = await tx.selectFrom('record').select(['uri', 'value']).where('uri', '=', uri).executeTakeFirst()
  if (existing && opts.createOnly) throw refuse('InvalidRequest', `A record already exists at ${uri}`)
  await countInSpace(tx, key.space, existing ? 0 : 1, Buffer.byteLength(prepared.json) - (existing ? Buffer.byteLength(existing.value) : 0))
  if (existing) {
    await tx.updateTable('record').set({ cid: prepared.cid, value: prepared.json, updatedAt: opts.now }).where('uri', '=', uri).execute()
    await tx.deleteFrom('record_blob').where('uri', '=', uri).execute()
  } else {
    await tx
      .insertInto('record')
      .values({ uri, ...key, cid: prepared.cid, value: prepared.json, createdAt: opts.now, updatedAt: opts.now })
      .execute()
  }
  // The images it names, indexed (as the PDS's record_blob): found without reading records.
  const cids = prepared.blobCids
  if (cids.length) {
    await tx.insertInto('record_blob').values(cids.map((cid) => ({ space: key.space, cid, uri }))).execute()
    // A record rewritten while taken down hides the images it now names too.
    if ((await takenDownAmong(tx, key.repo, [uri])).has(uri)) await hideImagesOf(tx, uri)
  }
  return { uri, created: !existing }
}

/** The most of the group's records one space keeps: a weekly event with its pictures and posts for centuries. */
export const MAX_GROUP_RECORDS_PER_SPACE = 50_000
/** The most bytes (of their JSON) of the group's records one space keeps. */
export const MAX_GROUP_RECORD_BYTES_PER_SPACE = 25_000_000

/**
 * Adds a write to the space's totals (migration 031), refusing (`InvalidRequest`) one that
 * would take the space past what the host keeps of the group's records there. Any account
 * holds every role in groups of its own, so a space's writers are no bound by themselves.
 * Under the group's lock (the write's transaction), so the totals hold.
 */
async function countInSpace(tx: Tx, space: string, records: number, bytes: number): Promise<void> {
  const row = await tx.selectFrom('space').select(['recordCount', 'recordBytes']).where('uri', '=', space).executeTakeFirst()
  if (!row) return
  const count = Number(row.recordCount) + records
  const size = Number(row.recordBytes) + bytes
  if (records > 0 && count > MAX_GROUP_RECORDS_PER_SPACE) {
    throw refuse('InvalidRequest', `The host keeps at most ${MAX_GROUP_RECORDS_PER_SPACE.toLocaleString('en')} of the group’s records in one space, and this one has that many: delete some first`)
  }
  if (bytes > 0 && size > MAX_GROUP_RECORD_BYTES_PER_SPACE) {
    throw refuse('InvalidRequest', `The host keeps at most ${MAX_GROUP_RECORD_BYTES_PER_SPACE.toLocaleString('en')} bytes of the group’s records in one space, and this write would take it to ${size.toLocaleString('en')}: delete some first`)
  }
  await tx.updateTable('space').set({ recordCount: count, recordBytes: size }).where('uri', '=', space).execute()
}

/** Whether there was a record to delete. */
export async function removeRecord(tx: Tx, key: RecordKey): Promise<boolean> {
  const uri = recordUri(key)
  const existing = await tx.selectFrom('record').select('value').where('uri', '=', uri).executeTakeFirst()
  if (existing) await countInSpace(tx, key.space, -1, -Buffer.byteLength(existing.value))
  await tx.deleteFrom('record_blob').where('uri', '=', uri).execute()
  // An event's capacity lives only as long as the event (spaces/event-organizers.ts).
  if (key.collection === 'community.lexicon.calendar.event') {
    await tx.deleteFrom('event_capacity').where('space', '=', key.space).where('rkey', '=', key.rkey).execute()
  }
  const res = await tx.deleteFrom('record').where('uri', '=', uri).executeTakeFirst()
  return Number(res.numDeletedRows) > 0
}

/** The group's own records of one collection in a space, newest rkey first, before `before`. */
export async function groupRecords(db: Kysely<HostDatabaseSchema>, q: { space: string; repo: string; collection: string; limit: number; before?: string }) {
  let query = db.selectFrom('record').select(['rkey', 'cid', 'value']).where('space', '=', q.space).where('repo', '=', q.repo).where('collection', '=', q.collection)
  if (q.before !== undefined) query = query.where('rkey', '<', q.before)
  return query.orderBy('rkey', 'desc').limit(q.limit).execute()
}
