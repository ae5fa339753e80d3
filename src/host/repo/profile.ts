import type { Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { commitWrites } from './commit.js'
import { readRecord } from './reads.js'
import type { RepoRecord } from './records.js'
import { isRepoTakenDown } from './takedown.js'

const PROFILE = 'app.bsky.actor.profile'

/**
 * Keeps the group's public profile (`app.bsky.actor.profile/self`) in step with its
 * settings after configureGroup changed its name or description: the other fields
 * (avatar, banner, pinned post) stay as they were written; an empty setting drops its
 * field. It writes the repo, so a group that had none gets one here. The change is
 * already in the log as `group.configured`, so this commit adds none of its own. A repo an
 * operator took down publishes nothing: its profile follows at the next change after it is
 * restored.
 */
export async function syncGroupProfile(tx: Transaction<HostDatabaseSchema>, hostKey: Buffer, groupDid: string): Promise<void> {
  if (await isRepoTakenDown(tx, groupDid)) return
  const group = await tx.selectFrom('group').select(['displayName', 'description']).where('did', '=', groupDid).executeTakeFirstOrThrow()
  const current = (await readRecord(tx, groupDid, PROFILE, 'self'))?.value as RepoRecord | undefined
  const { displayName: _name, description: _description, ...rest } = current ?? {}
  const record: RepoRecord = {
    ...rest,
    $type: PROFILE,
    ...(group.displayName ? { displayName: group.displayName } : {}),
    ...(group.description ? { description: group.description } : {}),
  }
  await commitWrites(tx, hostKey, groupDid, [{ action: 'put', collection: PROFILE, rkey: 'self', record }], undefined, { changeLog: false })
}
