import type { Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { commitWrites } from './commit.js'
import { imageCid } from './blobs.js'
import { readRecord } from './reads.js'
import type { RepoRecord } from './records.js'
import { isRepoTakenDown } from './takedown.js'

const PROFILE = 'app.bsky.actor.profile'


/**
 * Keeps the group's public profile (`app.bsky.actor.profile/self`) in step with its
 * settings after configureGroup changed its name, description or avatar: the group's
 * avatar is copied into the repo's images and named by the profile, so Bluesky and every
 * other reader show the group's face (issue 41 #2); the other fields (banner, pinned post)
 * stay as they were written; an empty setting drops its field, and a removed avatar
 * (`avatarRemoved`) its picture, while one another app put there stays until then. It
 * writes the repo, so a group that had none gets one here. The change is already in the
 * log as `group.configured`, so this commit adds none of its own. A repo an operator took
 * down publishes nothing: its profile follows at the next change after it is restored.
 */
export async function syncGroupProfile(tx: Transaction<HostDatabaseSchema>, hostKey: Buffer, groupDid: string, opts: { avatarRemoved?: boolean } = {}): Promise<void> {
  if (await isRepoTakenDown(tx, groupDid)) return
  const group = await tx.selectFrom('group').select(['displayName', 'description']).where('did', '=', groupDid).executeTakeFirstOrThrow()
  const current = (await readRecord(tx, groupDid, PROFILE, 'self'))?.value as RepoRecord | undefined
  const { displayName: _name, description: _description, avatar: written, ...rest } = current ?? {}
  const avatar = (await avatarBlob(tx, groupDid)) ?? (opts.avatarRemoved ? null : (written as RepoRecord | undefined) ?? null)
  const record: RepoRecord = {
    ...rest,
    $type: PROFILE,
    ...(group.displayName ? { displayName: group.displayName } : {}),
    ...(group.description ? { description: group.description } : {}),
    ...(avatar ? { avatar } : {}),
  }
  await commitWrites(tx, hostKey, groupDid, [{ action: 'put', collection: PROFILE, rkey: 'self', record }], undefined, { changeLog: false })
}

/**
 * The group's avatar as an image of its repo: its bytes stored there (once; the same bytes
 * are one row), answered as the blob ref a profile carries. One small image per group
 * (groups/avatar.ts), so it is kept whatever the repo's image bound; null when the group
 * has none.
 */
async function avatarBlob(tx: Transaction<HostDatabaseSchema>, groupDid: string): Promise<RepoRecord | null> {
  const row = await tx.selectFrom('group_avatar').select(['mime', 'data']).where('groupDid', '=', groupDid).executeTakeFirst()
  if (!row) return null
  const bytes = Buffer.from(row.data, 'base64')
  const cid = await imageCid(bytes)
  await tx
    .insertInto('repo_blob')
    .values({ groupDid, cid: cid.toString(), mimeType: row.mime, size: bytes.length, content: bytes, createdAt: new Date().toISOString() })
    .onConflict((oc) => oc.columns(['groupDid', 'cid']).doNothing())
    .execute()
  return { $type: 'blob', ref: cid as never, mimeType: row.mime, size: bytes.length }
}
