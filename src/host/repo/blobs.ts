import type { Kysely } from 'kysely'
import type { Readable } from 'node:stream'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { BlobRef } from '@atproto/lexicon'
import { InvalidRequestError } from '@atproto/xrpc-server'
import type { HostDatabaseSchema } from '../db/schema.js'
import { IMAGE_TYPES, imageTypeOf } from '../../shared/image-type.js'
import { refuse } from '../errors.js'

type Db = Kysely<HostDatabaseSchema>

/** The images a group may publish, and how large (Bluesky's own limit for a post's image). */
export const BLOB_TYPES: readonly string[] = IMAGE_TYPES
export const MAX_BLOB_BYTES = 1_000_000

const RAW_CODEC = 0x55

/** The CID an image's bytes are addressed by in the repo (raw codec, SHA-256), as a PDS addresses blobs. */
export const imageCid = async (bytes: Uint8Array) => CID.createV1(RAW_CODEC, await sha256.digest(bytes))

/** Which of the image types the bytes are, by their first bytes; undefined: none of them. */
export const sniffImageType = (bytes: Uint8Array): string | undefined => imageTypeOf(bytes) ?? undefined

/**
 * The body's bytes, refused (`BlobTooLarge`) as soon as they pass the limit, decoded as
 * far as they go (a gzip body is undone as it is read, so a small one that unpacks past
 * the limit is refused too). A body that cannot be read as its `content-encoding` says
 * is the sender's mistake (`InvalidRequest`), not the host's.
 */
export async function readAll(body: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length
      if (size > MAX_BLOB_BYTES) throw new InvalidRequestError(`An image may be up to ${MAX_BLOB_BYTES} bytes`, 'BlobTooLarge')
      chunks.push(chunk as Buffer)
    }
  } catch (err) {
    if (err instanceof InvalidRequestError) throw err
    const code = (err as { code?: unknown }).code
    if (typeof code === 'string' && code.startsWith('Z_')) throw new InvalidRequestError(`The body is not what its content-encoding says: ${(err as Error).message}`)
    throw err
  }
  return new Uint8Array(Buffer.concat(chunks))
}

/** How many images, and how many bytes of them, one group's public repo keeps (as a group's spaces do). */
export const MAX_REPO_BLOBS_PER_GROUP = 500
export const MAX_REPO_BLOB_BYTES_PER_GROUP = 100_000_000
/** An image no record of the repo names is dropped once it is this old (an upload whose post never came). */
export const UNREFERENCED_REPO_BLOB_MS = 60 * 60 * 1000

/** Runs `fn` in one transaction (uploadBlob passes the group's lock, db/group-lock.ts). */
export type Transact = <R>(fn: (tx: Db) => Promise<R>) => Promise<R>

/**
 * Stores an image for the group's public repo (uploadBlob) and answers its blob ref. Only
 * the image types above, checked against the bytes, so getBlob never serves something
 * else under an image's name; the same bytes twice are one row. As a PDS keeps an upload
 * apart until a record names it, getBlob serves it only once one does, and it is dropped
 * if none has within an hour. The drop, the count against the group's bound and the
 * insert are one transaction under `transact` (the group's lock), so uploads side by side
 * cannot pass the bound by the number in flight.
 */
export async function storeBlob(db: Db, groupDid: string, mimeType: string | undefined, body: Readable, now = new Date(), transact: Transact = (fn) => db.transaction().execute(fn)): Promise<BlobRef> {
  const type = (mimeType ?? '').split(';')[0]!.trim().toLowerCase()
  if (!BLOB_TYPES.includes(type)) throw new InvalidRequestError(`The group's repo takes images only (${BLOB_TYPES.join(', ')}), not "${type || 'no type'}"`)
  const bytes = await readAll(body)
  if (imageTypeOf(bytes) !== type) throw new InvalidRequestError(`The bytes are not a ${type} image`)
  const cid = await imageCid(bytes)
  await transact(async (tx) => {
    await dropUnreferenced(tx, groupDid, now)
    const held = await tx
      .selectFrom('repo_blob')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('size').as('bytes')])
      .where('groupDid', '=', groupDid)
      .executeTakeFirstOrThrow()
    if (Number(held.count) >= MAX_REPO_BLOBS_PER_GROUP || Number(held.bytes ?? 0) + bytes.length > MAX_REPO_BLOB_BYTES_PER_GROUP) {
      throw new InvalidRequestError(
        `The host keeps up to ${MAX_REPO_BLOBS_PER_GROUP} images (${MAX_REPO_BLOB_BYTES_PER_GROUP.toLocaleString('en')} bytes) for the group's public repo; delete posts with images first`,
        'BlobQuotaExceeded',
      )
    }
    await tx
      .insertInto('repo_blob')
      .values({ groupDid, cid: cid.toString(), mimeType: type, size: bytes.length, content: Buffer.from(bytes), createdAt: now.toISOString() })
      .onConflict((oc) => oc.columns(['groupDid', 'cid']).doNothing())
      .execute()
  })
  return new BlobRef(cid as never, type, bytes.length)
}

/** An image of a group's repo that one of its records names, or null (an upload no record has named yet is not public). */
export async function readBlob(db: Db, groupDid: string, cid: string): Promise<{ mimeType: string; content: Uint8Array } | null> {
  const row = await db
    .selectFrom('repo_blob')
    .select(['mimeType', 'content'])
    .where('groupDid', '=', groupDid)
    .where('cid', '=', cid)
    .where((eb) => eb.exists(eb.selectFrom('repo_record_blob').select('repo_record_blob.cid').whereRef('repo_record_blob.groupDid', '=', 'repo_blob.groupDid').whereRef('repo_record_blob.cid', '=', 'repo_blob.cid')))
    .executeTakeFirst()
  return row ? { mimeType: row.mimeType, content: new Uint8Array(row.content) } : null
}

/**
 * Drops the group's repo images older than UNREFERENCED_REPO_BLOB_MS that no record names:
 * one statement over the index written with each commit (repo_record_blob).
 */
async function dropUnreferenced(db: Db, groupDid: string, now: Date): Promise<void> {
  const before = new Date(now.getTime() - UNREFERENCED_REPO_BLOB_MS).toISOString()
  await db
    .deleteFrom('repo_blob')
    .where('groupDid', '=', groupDid)
    .where('createdAt', '<', before)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('repo_record_blob').select('repo_record_blob.cid').whereRef('repo_record_blob.groupDid', '=', 'repo_blob.groupDid').whereRef('repo_record_blob.cid', '=', 'repo_blob.cid'))))
    .execute()
}

/**
 * A record committed to the group's repo may carry only images uploaded to it, as they
 * were uploaded (a PDS refuses a record naming a blob it does not hold): otherwise a
 * reader, or a relay, would be sent to bytes nobody serves.
 */
export function checkRepoBlobs(db: Db, groupDid: string, refs: BlobRefFound[]): Promise<void> {
  return requireAsUploaded(
    refs,
    (cid) => db.selectFrom('repo_blob').select(['mimeType', 'size']).where('groupDid', '=', groupDid).where('cid', '=', cid).executeTakeFirst(),
    (cid) => `The image ${cid} was not uploaded to the group's repo (com.atproto.repo.uploadBlob)`,
  )
}

/**
 * Each blob ref names an image `find` holds, with the type and size it was uploaded with;
 * else `InvalidRequest`, worded by `notUploaded` when there is no such image. One rule for
 * the repo's images and a space's (spaces/space-blobs.ts).
 */
export async function requireAsUploaded(
  refs: BlobRefFound[],
  find: (cid: string) => Promise<{ mimeType: string; size: number } | undefined>,
  notUploaded: (cid: string) => string,
): Promise<void> {
  for (const ref of refs) {
    const row = await find(ref.cid)
    if (!row) throw refuse('InvalidRequest', notUploaded(ref.cid))
    if (row.mimeType !== ref.mimeType || row.size !== ref.size) {
      throw refuse('InvalidRequest', `The image ${ref.cid} is a ${row.mimeType} of ${row.size} bytes, not what the record says`)
    }
  }
}

/** A blob ref as a record carries it. */
export interface BlobRefFound {
  cid: string
  mimeType: string
  size: number
}

/** Every blob ref in a record: as lexicon values (BlobRef), as committed (`ref` a CID), or in their JSON form (`ref.$link`). */
export function blobRefsIn(value: unknown, found: BlobRefFound[] = []): BlobRefFound[] {
  if (value instanceof BlobRef) {
    found.push({ cid: value.ref.toString(), mimeType: value.mimeType, size: value.size })
  } else if (Array.isArray(value)) {
    for (const v of value) blobRefsIn(v, found)
  } else if (value && typeof value === 'object' && !(value instanceof Uint8Array) && !CID.asCID(value)) {
    const v = value as Record<string, unknown>
    const link = CID.asCID(v.ref)?.toString() ?? (v.ref as { $link?: unknown } | undefined)?.$link
    if (v.$type === 'blob' && typeof link === 'string') found.push({ cid: link, mimeType: String(v.mimeType), size: Number(v.size) })
    else for (const inner of Object.values(v)) blobRefsIn(inner, found)
  }
  return found
}
