import type { Kysely } from 'kysely'
import type { Readable } from 'node:stream'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { BlobRef } from '@atproto/lexicon'
import { InvalidRequestError } from '@atproto/xrpc-server'
import type { HostDatabaseSchema } from '../db/schema.js'
import { IMAGE_TYPES, imageTypeOf } from '../../shared/image-type.js'

type Db = Kysely<HostDatabaseSchema>

/** The images a group may publish, and how large (Bluesky's own limit for a post's image). */
export const BLOB_TYPES: readonly string[] = IMAGE_TYPES
export const MAX_BLOB_BYTES = 1_000_000

const RAW_CODEC = 0x55

/** Which of the image types the bytes are, by their first bytes; undefined: none of them. */
export const sniffImageType = (bytes: Uint8Array): string | undefined => imageTypeOf(bytes) ?? undefined

/** The body's bytes, refused (`BlobTooLarge`) as soon as they pass the limit. */
export async function readAll(body: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    size += (chunk as Buffer).length
    if (size > MAX_BLOB_BYTES) throw new InvalidRequestError(`An image may be up to ${MAX_BLOB_BYTES} bytes`, 'BlobTooLarge')
    chunks.push(chunk as Buffer)
  }
  return new Uint8Array(Buffer.concat(chunks))
}

/**
 * Stores an image for the group's public repo (uploadBlob) and answers its blob ref. Only
 * the image types above, checked against the bytes, so getBlob never serves something
 * else under an image's name. Stored whether or not a record ever refers to it (no
 * clean-up of unreferenced images yet); the same bytes twice are one row.
 */
export async function storeBlob(db: Db, groupDid: string, mimeType: string | undefined, body: Readable): Promise<BlobRef> {
  const type = (mimeType ?? '').split(';')[0]!.trim().toLowerCase()
  if (!BLOB_TYPES.includes(type)) throw new InvalidRequestError(`The group's repo takes images only (${BLOB_TYPES.join(', ')}), not "${type || 'no type'}"`)
  const bytes = await readAll(body)
  if (imageTypeOf(bytes) !== type) throw new InvalidRequestError(`The bytes are not a ${type} image`)
  const cid = CID.createV1(RAW_CODEC, await sha256.digest(bytes))
  await db
    .insertInto('repo_blob')
    .values({ groupDid, cid: cid.toString(), mimeType: type, size: bytes.length, content: Buffer.from(bytes), createdAt: new Date().toISOString() })
    .onConflict((oc) => oc.columns(['groupDid', 'cid']).doNothing())
    .execute()
  return new BlobRef(cid as never, type, bytes.length)
}

/** An image of a group's repo, or null. */
export async function readBlob(db: Db, groupDid: string, cid: string): Promise<{ mimeType: string; content: Uint8Array } | null> {
  const row = await db.selectFrom('repo_blob').select(['mimeType', 'content']).where('groupDid', '=', groupDid).where('cid', '=', cid).executeTakeFirst()
  return row ? { mimeType: row.mimeType, content: new Uint8Array(row.content) } : null
}
