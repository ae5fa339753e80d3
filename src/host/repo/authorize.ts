import type { Kysely } from 'kysely'
import { RepoPermission } from '@atproto/oauth-scopes'
import type { HostDatabaseSchema } from '../db/schema.js'
import { refuse } from '../errors.js'
import { viewerOf } from '../groups/access.js'
import type { WriteGrant } from '../spaces/group-writes.js'
import { coversCollection, repoCollectionsFor } from './collections.js'

export type RepoAction = 'create' | 'update' | 'delete'

/** The `repo:` permissions of an OAuth scope string (atproto's syntax: `repo:<collection>`, `repo:*`, `?action=`). */
export const repoScopesIn = (scope: string): string[] => scope.split(' ').filter((s) => s.startsWith('repo:') || s.startsWith('repo?'))

/**
 * May this group credential or group session write `collection` in the group's public
 * repo? The repo must be the group's; the token must cover the collection and action
 * (a credential: the `repoCollections` it was granted; a session: its `repo:` scopes);
 * and the person holding it must still have a role with `repo.write` now, so a revoked
 * role takes effect at once. Refusals are `Forbidden` and name the collection.
 */
export async function authorizeRepoWrite(db: Kysely<HostDatabaseSchema>, grant: WriteGrant, repo: string, writes: { collection: string; action: RepoAction }[]): Promise<void> {
  if (repo !== grant.group) {
    throw refuse('InvalidRequest', `repo must be the group DID (${grant.group}): a group credential writes the group's own repo only`)
  }
  const permissions = (grant.repoScopes ?? []).map((s) => RepoPermission.fromString(s)).filter((p): p is RepoPermission => p !== null)
  const live = repoCollectionsFor(await viewerOf(db, grant.group, grant.actor))
  for (const w of writes) {
    if (!permissions.some((p) => p.matches(w))) {
      throw refuse('Forbidden', `This credential may not ${w.action} ${w.collection} records in the group's public repo (its grant's repoCollections do not include it)`)
    }
    if (!coversCollection(live, w.collection)) {
      throw refuse('Forbidden', `Your roles in the group no longer let you write ${w.collection} in its public repo`)
    }
  }
}
