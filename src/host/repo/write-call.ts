import type { HostDb } from '../db/index.js'
import { groupTransaction } from '../db/group-lock.js'
import type { WriteGrant } from '../spaces/group-writes.js'
import { authorizeRepoWrite, type RepoAction } from './authorize.js'
import { commitWrites, type CommitResult, type RepoWrite } from './commit.js'
import { requireRepoServed } from './takedown.js'

/**
 * One com.atproto.repo write call: authorized against the token and the caller's roles,
 * then committed, in one transaction (a role revoked meanwhile cannot slip a commit in).
 * A put is checked as both create and update, since which it is depends on the repo.
 */
/** What a write call needs of the host: its database, and the host key that unseals the group's signing key. */
export interface RepoWriteDeps {
  db: HostDb
  config: { hostKey: Buffer }
}

export function repoWriteCall(ctx: RepoWriteDeps, grant: WriteGrant, repo: string, writes: RepoWrite[], swapCommit?: string): Promise<CommitResult> {
  const actions = writes.flatMap((w): { collection: string; action: RepoAction }[] =>
    w.action === 'put' ? [{ collection: w.collection, action: 'create' }, { collection: w.collection, action: 'update' }] : [{ collection: w.collection, action: w.action }],
  )
  // The group's lock first, then the roles that decide (as space writes: spaces/group-writes.ts).
  return groupTransaction(ctx.db, grant.group, async (tx) => {
    await authorizeRepoWrite(tx, grant, repo, actions)
    // Nothing more is published from a repo an operator took down.
    await requireRepoServed(tx, repo)
    return commitWrites(tx, ctx.config.hostKey, repo, writes, swapCommit)
  })
}
