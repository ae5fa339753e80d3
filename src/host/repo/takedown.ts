import type { Kysely, Transaction } from 'kysely'
import { InvalidRequestError } from '@atproto/xrpc-server'
import type { HostDatabaseSchema } from '../db/schema.js'

type Db = Kysely<HostDatabaseSchema> | Transaction<HostDatabaseSchema>

/**
 * An operator's takedown of a group's public repo (the host's `takedown-repo` command):
 * while it stands, the repo's reads answer `RepoTakendown` as a PDS's do for a taken-down
 * account, `listRepos` lists it inactive, its firehose frames are not sent, and nothing
 * more is committed to it. The rows stay, so `restore-repo` brings it all back as it was.
 * Group moderation (takedowns.ts) is the group's own; this is the host's.
 */
export const repoTakendown = (did: string) => new InvalidRequestError(`The repo of ${did} was taken down by this host's operator`, 'RepoTakendown')

export async function isRepoTakenDown(db: Db, did: string): Promise<boolean> {
  return !!(await db.selectFrom('repo_takedown').select('groupDid').where('groupDid', '=', did).executeTakeFirst())
}

/** RepoTakendown while an operator's takedown stands. */
export async function requireRepoServed(db: Db, did: string): Promise<void> {
  if (await isRepoTakenDown(db, did)) throw repoTakendown(did)
}

/** The groups whose repos are taken down (the firehose leaves their frames out); bounded by what operators do. */
export async function takenDownRepos(db: Db): Promise<Set<string>> {
  return new Set((await db.selectFrom('repo_takedown').select('groupDid').execute()).map((r) => r.groupDid))
}

/** Takes a group's repo down; false when it already was. */
export async function takeDownRepo(db: Db, did: string, reason: string | null): Promise<boolean> {
  const res = await db.insertInto('repo_takedown').values({ groupDid: did, reason, createdAt: new Date().toISOString() }).onConflict((oc) => oc.column('groupDid').doNothing()).executeTakeFirst()
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0
}

/** Ends a takedown; false when none stood. */
export async function restoreRepo(db: Db, did: string): Promise<boolean> {
  const res = await db.deleteFrom('repo_takedown').where('groupDid', '=', did).executeTakeFirst()
  return Number(res.numDeletedRows) > 0
}
