import type { Viewer } from '../groups/access.js'

/**
 * The collections a group may write in its public repo (issue 28; docs/host.md, "The
 * group's public repo"): a fixed list, since what the host lets a group publish is the
 * operator's choice, not each group's. Who may write them is the group's: a role with
 * the `repo.write` action (owner and admin by default) writes every one of them.
 */
export const REPO_COLLECTIONS: readonly string[] = ['app.bsky.feed.post', 'app.bsky.actor.profile', 'app.bsky.feed.threadgate']

/** The public repo's collections `viewer` may write now: `repoCollections` in their grants. */
export function repoCollectionsFor(viewer: Viewer): string[] {
  return viewer.isMember && viewer.actions.has('repo.write') ? [...REPO_COLLECTIONS] : []
}

/** Whether a grant's list (`*`: every collection) covers `collection`. */
export const coversCollection = (granted: readonly string[], collection: string): boolean => granted.includes('*') || granted.includes(collection)
