import type { Kysely } from 'kysely'
import type { Readable } from 'node:stream'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { BlobRef } from '@atproto/lexicon'
import { InvalidRequestError } from '@atproto/xrpc-server'
import type { HostDatabaseSchema } from '../db/schema.js'
import { BLOB_TYPES, blobRefsIn, readAll, requireAsUploaded, sniffImageType } from '../repo/blobs.js'

type Db = Kysely<HostDatabaseSchema>

/** How many images, and how many bytes of them, one group keeps across its spaces. */
export const MAX_SPACE_BLOBS_PER_GROUP = 500
export const MAX_SPACE_BLOB_BYTES_PER_GROUP = 100_000_000
/** An image no record of its space refers to is dropped once it is this old (an upload whose record never came). */
export const UNREFERENCED_BLOB_MS = 60 * 60 * 1000

const RAW_CODEC = 0x55

/** Runs `fn` in one transaction (the upload handler passes the group's lock, db/group-lock.ts). */
export type Transact = <R>(fn: (tx: Db) => Promise<R>) => Promise<R>

/**
 * Stores an image uploaded for a space and answers its blob ref. The type is what the
 * bytes are (the declared content type is not trusted: getSpaceBlob serves the stored
 * one); the same bytes twice in a space are one row. Before counting the group's
 * images against its bounds, those no record refers to any more are dropped. The drop,
 * the count and the insert are one transaction under `transact` (the group's lock), so
 * uploads side by side cannot all pass the bound by the number in flight.
 */
export async function storeSpaceBlob(db: Db, space: { uri: string; groupDid: string }, body: Readable, now = new Date(), transact: Transact = (fn) => db.transaction().execute(fn)): Promise<BlobRef> {
  const bytes = await readAll(body)
  const type = sniffImageType(bytes)
  if (!type) throw new InvalidRequestError(`A space takes images only (${BLOB_TYPES.join(', ')}); these bytes are none of them`, 'InvalidBlobType')
  const cid = CID.createV1(RAW_CODEC, await sha256.digest(bytes)).toString()
  await transact(async (tx) => {
    await dropUnreferenced(tx, space.groupDid, now)
    const held = await tx
      .selectFrom('space_blob')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('size').as('bytes')])
      .where('groupDid', '=', space.groupDid)
      .executeTakeFirstOrThrow()
    if (Number(held.count) >= MAX_SPACE_BLOBS_PER_GROUP || Number(held.bytes ?? 0) + bytes.length > MAX_SPACE_BLOB_BYTES_PER_GROUP) {
      throw new InvalidRequestError(`The group keeps up to ${MAX_SPACE_BLOBS_PER_GROUP} images (${MAX_SPACE_BLOB_BYTES_PER_GROUP} bytes) in its spaces; remove some first`, 'BlobQuotaExceeded')
    }
    await tx
      .insertInto('space_blob')
      .values({ space: space.uri, cid, groupDid: space.groupDid, mimeType: type, size: bytes.length, content: Buffer.from(bytes), createdAt: now.toISOString() })
      .onConflict((oc) => oc.columns(['space', 'cid']).doNothing())
      .execute()
  })
  return new BlobRef(CID.parse(cid) as never, type, bytes.length)
}

/** An image of a space, or null. */
export async function readSpaceBlob(db: Db, space: string, cid: string): Promise<{ mimeType: string; content: Uint8Array } | null> {
  const row = await db.selectFrom('space_blob').select(['mimeType', 'content']).where('space', '=', space).where('cid', '=', cid).executeTakeFirst()
  return row ? { mimeType: row.mimeType, content: new Uint8Array(row.content) } : null
}

/**
 * Whether a takedown hides the image (blob_takedown, written when a record naming it was
 * taken down): hidden while any takedown of a record that named it stands, whatever names
 * it now (issue 35: deleting the taken-down record, or quoting its CID in a new one, once
 * made it servable again).
 */
export async function blobTakenDown(db: Db, space: string, cid: string): Promise<boolean> {
  const row = await db.selectFrom('blob_takedown').select('uri').where('space', '=', space).where('cid', '=', cid).limit(1).executeTakeFirst()
  return row !== undefined
}

/**
 * Drops the group's images older than UNREFERENCED_BLOB_MS that no record of their space
 * names: one statement over the index written with each record (record_blob), whatever
 * the number of images or records (issue 35: it was a scan of the space per image).
 */
async function dropUnreferenced(db: Db, groupDid: string, now: Date): Promise<void> {
  const before = new Date(now.getTime() - UNREFERENCED_BLOB_MS).toISOString()
  await db
    .deleteFrom('space_blob')
    .where('groupDid', '=', groupDid)
    .where('createdAt', '<', before)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('record_blob').select('record_blob.uri').whereRef('record_blob.space', '=', 'space_blob.space').whereRef('record_blob.cid', '=', 'space_blob.cid'))))
    .execute()
}

/**
 * A record the group writes in a space may carry only images uploaded for that space,
 * as they were uploaded: otherwise a reader would be sent to bytes the space does not
 * hold (or another space's, whose readers may differ).
 */
export function checkSpaceBlobs(db: Db, space: string, record: unknown): Promise<void> {
  return requireAsUploaded(
    blobRefsIn(record),
    (cid) => db.selectFrom('space_blob').select(['mimeType', 'size']).where('space', '=', space).where('cid', '=', cid).executeTakeFirst(),
    (cid) => `The image ${cid} was not uploaded for this space (example.groups.uploadSpaceBlob)`,
  )
}
