import { RepoPermission } from '@atproto/oauth-scopes'
import type { Viewer } from '../groups/access.js'
import { repoCollectionsFor } from '../repo/collections.js'
import { repoScopesIn, type RepoAction } from '../repo/authorize.js'

const ACTIONS: readonly RepoAction[] = ['create', 'update', 'delete']

/** A granted permission in the group's public repo: one collection, the actions on it. */
export interface GroupRepoScope {
  collection: string
  actions: RepoAction[]
}

/**
 * The `repo:` scopes a group session gets of those the app asked for: each collection the
 * person's roles may write in the group's public repo (`repo.write`) with the actions the
 * request allows on it; the rest is dropped, silently as for `space:` scopes.
 */
export function narrowRepoScopes(viewer: Viewer, requested: string): GroupRepoScope[] {
  const asked = repoScopesIn(requested)
    .map((s) => RepoPermission.fromString(s))
    .filter((p): p is RepoPermission => p !== null)
  if (!asked.length) return []
  return repoCollectionsFor(viewer).flatMap((collection) => {
    const actions = ACTIONS.filter((action) => asked.some((p) => p.matches({ collection, action })))
    return actions.length ? [{ collection, actions }] : []
  })
}

/** A granted repo scope as atproto writes it. */
export const formatRepoScope = (s: GroupRepoScope): string => new RepoPermission([s.collection as never], s.actions as never).toString()

const WHAT: Record<string, string> = {
  'app.bsky.feed.post': 'the group’s public posts',
  'app.bsky.actor.profile': 'the group’s public profile',
  'app.bsky.feed.threadgate': 'who may reply to the group’s public posts',
}
const VERB: Record<RepoAction, string> = { create: 'write', update: 'change', delete: 'delete' }

/** A granted repo scope in plain words, for the consent page. */
export function describeRepoScope(s: GroupRepoScope): string {
  const verbs = s.actions.map((a) => VERB[a])
  const list = verbs.length > 1 ? `${verbs.slice(0, -1).join(', ')} and ${verbs.at(-1)!}` : verbs[0]!
  return `${list[0]!.toUpperCase()}${list.slice(1)} ${WHAT[s.collection] ?? `${s.collection} records in the group’s public repo`}`
}
