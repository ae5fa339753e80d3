import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import { inTransaction } from './portable.js'

/** The CID of a record's DAG-CBOR encoding, as atproto computes it (db/index.ts passes @atproto/lex-cbor's). */
export type RecordCid = (record: Record<string, unknown>) => Promise<string>

/** The tables this migration reads and writes, as they were when it was written. */
interface Tables {
  group: { did: string }
  role: { groupDid: string; name: string }
  space: { uri: string; groupDid: string; type: string; skey: string; name: string; readableBy: string; credentialScopes: string; createdAt: string; updatedAt: string }
  record: { uri: string; space: string; repo: string; collection: string; rkey: string; cid: string; value: string; createdAt: string; updatedAt: string }
}

/** The well-known spaces and their names, as spaces/well-known.ts had them when this was written. */
const WELL_KNOWN: readonly (readonly [type: string, name: string])[] = [
  ['meta', 'Group information'],
  ['members', 'Members'],
]
const SPACE_INDEX_COLLECTION = 'example.groups.space'

/**
 * Groups created before the host made well-known spaces get their `meta` and `members`
 * spaces (and index records) now, so every group has them. Seen DPoP proof ids are
 * pruned by expiry, hence the index. One transaction, as in 002.
 *
 * Frozen: what spaces/well-known.ts and spaces/space-index.ts did then is copied in.
 * Only the record's CID comes from outside, a pure function of the record defined by
 * atproto; the records made here are plain strings and arrays, so their JSON form is
 * the record as written.
 */
export function wellKnownSpacesMigration(cidOf: RecordCid): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('dpop_jti_expires').on('dpop_jti').column('expiresAt').execute()
      await inTransaction(db, async (untyped) => {
        const tx = untyped as Kysely<Tables>
        const now = new Date().toISOString()
        const groups = await tx.selectFrom('group').select('did').execute()
        for (const g of groups) await createWellKnownSpaces(tx, cidOf, g.did, now)
      })
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('dpop_jti_expires').execute()
    },
  }
}

/** Idempotent: a space that exists already is left alone. Readable by each of the group's roles. */
async function createWellKnownSpaces(tx: Kysely<Tables>, cidOf: RecordCid, groupDid: string, now: string): Promise<void> {
  const roles = (await tx.selectFrom('role').select('name').where('groupDid', '=', groupDid).orderBy('name').execute()).map((r) => r.name)
  for (const [type, name] of WELL_KNOWN) {
    const uri = `at://${groupDid}/space/${type}/self`
    const inserted = await tx
      .insertInto('space')
      .values({ uri, groupDid, type, skey: 'self', name, readableBy: JSON.stringify(roles), credentialScopes: '[]', createdAt: now, updatedAt: now })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst()
    if (Number(inserted.numInsertedOrUpdatedRows) === 0) continue
    // The space's record in the group's space index: in the `members` space, in the
    // group's own repo, rkey `<type>:<skey>`; written over one that is there.
    const key = { space: `at://${groupDid}/space/members/self`, repo: groupDid, collection: SPACE_INDEX_COLLECTION, rkey: `${type}:self` }
    const record = { $type: SPACE_INDEX_COLLECTION, type, skey: 'self', name, readableBy: roles, credentialScopes: [], createdAt: now }
    const recordUri = `${key.space}/${key.repo}/${key.collection}/${key.rkey}`
    const cid = await cidOf(record)
    const value = JSON.stringify(record)
    const existing = await tx.selectFrom('record').select('uri').where('uri', '=', recordUri).executeTakeFirst()
    if (existing) {
      await tx.updateTable('record').set({ cid, value, updatedAt: now }).where('uri', '=', recordUri).execute()
    } else {
      await tx.insertInto('record').values({ uri: recordUri, ...key, cid, value, createdAt: now, updatedAt: now }).execute()
    }
  }
}
