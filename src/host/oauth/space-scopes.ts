import type { Kysely } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { formatSpaceScope, spaceScopesFor, type GroupSpaceScope, type SpaceAction } from '../../shared/space-scope.js'
import { ALL_COLLECTIONS, findSpace, writableCollections } from '../spaces/space.js'
import type { Viewer } from '../groups/access.js'
import { formatRepoScope, narrowRepoScopes, type GroupRepoScope } from './repo-scopes.js'

type Db = Kysely<HostDatabaseSchema>

const MAX_SCOPE_TOKENS = 50

/**
 * What a group session may have of what the app asked for (decisions 6.6): `atproto`,
 * and each `space:` scope of this group narrowed to the collections the person's roles
 * get a credential for in that space (`credentialScopes`), dropped when none is left.
 * `repo:` scopes are narrowed to the group's public repo's collections the person's roles
 * may write (repo-scopes.ts). Every other scope is dropped too: the group has no RPC or
 * blob permissions on this host to give. Dropping is silent (spec section 5.4): the
 * granted scope says it.
 */
export async function narrowScope(
  db: Db,
  groupDid: string,
  viewer: Viewer,
  requested: string,
): Promise<{ scope: string; spaces: (GroupSpaceScope & { name: string })[]; repo: GroupRepoScope[] }> {
  const spaces: (GroupSpaceScope & { name: string })[] = []
  for (const asked of spaceScopesFor(requested, groupDid, MAX_SCOPE_TOKENS)) {
    const space = await findSpace(db, asked.space)
    if (!space) continue
    const allowed = writableCollections(space, viewer)
    const collections = allowed.includes(ALL_COLLECTIONS)
      ? asked.collections
      : asked.collections.includes(ALL_COLLECTIONS)
        ? allowed
        : asked.collections.filter((c) => allowed.includes(c))
    // The space's name comes along for the consent page, which names what it grants.
    if (collections.length) spaces.push({ ...asked, collections, name: space.name })
  }
  const repo = narrowRepoScopes(viewer, requested)
  return { scope: ['atproto', ...spaces.map(formatSpaceScope), ...repo.map(formatRepoScope)].join(' '), spaces, repo }
}

const ACTION_WORDS: Record<SpaceAction, string> = { create: 'create', update: 'change', delete: 'delete' }

/** A granted space scope in plain words, for the consent page. */
export function describeSpaceScope(s: GroupSpaceScope, spaceName: string): string {
  const verbs = s.actions.map((a) => ACTION_WORDS[a])
  const what = s.collections.includes(ALL_COLLECTIONS) ? 'any kind of record' : s.collections.join(', ')
  const list = verbs.length > 1 ? `${verbs.slice(0, -1).join(', ')} and ${verbs.at(-1)!}` : verbs[0]!
  return `${list[0]!.toUpperCase()}${list.slice(1)} ${what} in the group's “${spaceName}” space, as the group`
}
