import type { Kysely, Transaction } from 'kysely'
import { jsonToLex } from '@atproto/lexicon'
import type { HostDatabaseSchema } from '../db/schema.js'
import { recordChange } from '../changes.js'
import { refuse } from '../errors.js'
import { prepareRecord, recordUri, type PreparedRecord, type RecordKey } from './records.js'
import type { MemberPdsRecord } from './member-pds.js'
import { afterRsvpSynced, isRsvpCollection } from './standing.js'

type Tx = Transaction<HostDatabaseSchema>
type Db = Kysely<HostDatabaseSchema>

/**
 * Checks what a member's PDS showed: a record of its collection (validated against the
 * lexicon when the host knows it, as the group's own records are) whose DAG-CBOR hashes
 * to the CID the PDS gave. A PDS that serves one thing under another's CID is not
 * believed.
 */
export async function verifyMemberRecord(key: RecordKey, fetched: Extract<MemberPdsRecord, { found: true }>): Promise<PreparedRecord> {
  let value: Record<string, unknown>
  try {
    value = jsonToLex(fetched.value as Parameters<typeof jsonToLex>[0]) as Record<string, unknown>
  } catch (err) {
    throw refuse('InvalidRequest', `The record on the member's PDS is not valid atproto data: ${(err as Error).message}`)
  }
  const prepared = await prepareRecord(key.collection, key.rkey, value)
  if (prepared.cid !== fetched.cid) {
    throw refuse('InvalidRequest', `The member's PDS gave the record the CID ${fetched.cid}, but its content hashes to ${prepared.cid}`)
  }
  return prepared
}

export type MemberRecordChange = 'created' | 'updated' | 'deleted' | null

/**
 * Makes the host's copy of a member's record what their PDS holds (`undefined`: it
 * holds nothing there), inside the caller's transaction. Only a real change is written
 * and logged, so announcing the same write again changes nothing.
 */
export async function syncMemberRecord(tx: Tx, groupDid: string, key: RecordKey, record: PreparedRecord | undefined, now: string): Promise<MemberRecordChange> {
  const existing = await tx
    .selectFrom('member_record')
    .select('cid')
    .where('space', '=', key.space)
    .where('repo', '=', key.repo)
    .where('collection', '=', key.collection)
    .where('rkey', '=', key.rkey)
    .executeTakeFirst()
  let change: MemberRecordChange = null
  if (!record && existing) {
    await tx
      .deleteFrom('member_record')
      .where('space', '=', key.space)
      .where('repo', '=', key.repo)
      .where('collection', '=', key.collection)
      .where('rkey', '=', key.rkey)
      .execute()
    change = 'deleted'
  } else if (record && !existing) {
    await tx.insertInto('member_record').values({ groupDid, ...key, cid: record.cid, value: record.json, indexedAt: now }).execute()
    change = 'created'
  } else if (record && existing && existing.cid !== record.cid) {
    await tx
      .updateTable('member_record')
      .set({ cid: record.cid, value: record.json, indexedAt: now })
      .where('space', '=', key.space)
      .where('repo', '=', key.repo)
      .where('collection', '=', key.collection)
      .where('rkey', '=', key.rkey)
      .execute()
    change = 'updated'
  }
  if (change) await recordChange(tx, groupDid, `record.${change}`, recordUri(key))
  // An RSVP's change may take or free a place at its event (spaces/standing.ts).
  if (change && isRsvpCollection(key.collection)) await afterRsvpSynced(tx, groupDid, key.space, key.repo)
  return change
}

/** One member's record the host keeps, or undefined. */
export async function findMemberRecord(db: Db, key: RecordKey) {
  return db
    .selectFrom('member_record')
    .select(['cid', 'value'])
    .where('space', '=', key.space)
    .where('repo', '=', key.repo)
    .where('collection', '=', key.collection)
    .where('rkey', '=', key.rkey)
    .executeTakeFirst()
}

/** A member's records of one collection in a space, newest rkey first, after `before`. */
export async function listMemberRecords(db: Db, q: { space: string; repo: string; collection: string; limit: number; before?: string }) {
  let query = db
    .selectFrom('member_record')
    .select(['rkey', 'cid', 'value'])
    .where('space', '=', q.space)
    .where('repo', '=', q.repo)
    .where('collection', '=', q.collection)
  if (q.before !== undefined) query = query.where('rkey', '<', q.before)
  return query.orderBy('rkey', 'desc').limit(q.limit).execute()
}

/**
 * What every member wrote in a space, of one collection (optionally one rkey), ordered
 * by member DID, then rkey, after the cursor's `[repo, rkey]`.
 */
export async function everyMembersRecords(db: Db, q: { space: string; collection: string; rkey?: string; after?: readonly [string, string]; limit: number }) {
  let query = db.selectFrom('member_record').select(['repo', 'rkey', 'cid', 'value']).where('space', '=', q.space).where('collection', '=', q.collection)
  if (q.rkey !== undefined) query = query.where('rkey', '=', q.rkey)
  if (q.after) {
    const [afterRepo, afterRkey] = q.after
    query = query.where((eb) => eb.or([eb('repo', '>', afterRepo), eb.and([eb('repo', '=', afterRepo), eb('rkey', '>', afterRkey)])]))
  }
  return query.orderBy('repo').orderBy('rkey').limit(q.limit).execute()
}
