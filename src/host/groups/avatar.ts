import type { Kysely, Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { refuse } from '../errors.js'
import { imageTypeOf } from '../../shared/image-type.js'

/**
 * A group's avatar (issue 25 point 4): small and strict. It is served inline in every
 * group view (getGroup's `avatar`, a data: URL), so it is kept to 64 KB, plenty for a
 * picture shown at 32-64 pixels; its type is what its first bytes say (PNG, JPEG or
 * WebP), never what the caller declares, so nothing else is served as an image.
 */
export const MAX_AVATAR_BYTES = 64 * 1024

/** The image's type as its bytes say, or null for anything but PNG, JPEG and WebP. */
export function sniffImage(bytes: Buffer): string | null {
  const type = imageTypeOf(bytes)
  return type === 'image/gif' ? null : type
}

/** Base64 as sent (standard alphabet, padded or not), strictly: Buffer.from alone would skip what it cannot read. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** An avatar as configureGroup takes it (base64), checked: `InvalidRequest` says what is wrong in words. */
export function parseAvatar(base64: string): { mime: string; data: string } {
  if (!BASE64.test(base64)) throw refuse('InvalidRequest', 'avatar must be the image’s bytes in base64')
  const bytes = Buffer.from(base64, 'base64')
  if (bytes.length === 0) throw refuse('InvalidRequest', 'avatar is empty: leave it out, or send removeAvatar to take the avatar away')
  if (bytes.length > MAX_AVATAR_BYTES) throw refuse('InvalidRequest', `avatar is ${Math.ceil(bytes.length / 1024)} KB: at most ${MAX_AVATAR_BYTES / 1024} KB`)
  const mime = sniffImage(bytes)
  if (!mime) throw refuse('InvalidRequest', 'avatar must be a PNG, JPEG or WebP image')
  return { mime, data: bytes.toString('base64') }
}

/** Sets (or, with null, removes) the group's avatar. */
export async function setAvatar(tx: Transaction<HostDatabaseSchema>, groupDid: string, avatar: { mime: string; data: string } | null): Promise<void> {
  await tx.deleteFrom('group_avatar').where('groupDid', '=', groupDid).execute()
  if (avatar) await tx.insertInto('group_avatar').values({ groupDid, ...avatar, updatedAt: new Date().toISOString() }).execute()
}

/** The group's avatar as getGroup serves it, a data: URL, or undefined when it has none. */
export async function avatarUrl(db: Kysely<HostDatabaseSchema>, groupDid: string): Promise<string | undefined> {
  const row = await db.selectFrom('group_avatar').select(['mime', 'data']).where('groupDid', '=', groupDid).executeTakeFirst()
  return row ? `data:${row.mime};base64,${row.data}` : undefined
}
