import type { AccessTokenKind } from './access-tokens.js'

/** What a group credential (`getGroupAuth`) lets its holder do, as carried in the token. */
export interface GroupGrant {
  /** The group DID: the token acts for it. */
  sub: string
  /** The member who obtained it (their roles decided the grant). */
  actor: string
  /** The one space it writes in. */
  space: string
  /** Collections it may write there; `['*']` for every collection. */
  collections: string[]
  scope: string
  /** Collections of the group's public repo it may write (`repoCollections`); absent in older tokens: none. */
  repoCollections?: string[]
  /** Thumbprint of the DPoP key it is bound to. */
  jkt: string
}

/**
 * Group credentials: `act.sub` is the member acting for the group (RFC 8693); `iss` and
 * `aud` are the host's service DID.
 */
export const GROUP_CREDENTIAL: AccessTokenKind<GroupGrant> = {
  name: 'group credential',
  renew: 'get a new one with example.groups.getGroupAuth',
  write: (g) => ({ act: { sub: g.actor }, space: g.space, collections: g.collections, scope: g.scope, ...(g.repoCollections?.length ? { repoCollections: g.repoCollections } : {}) }),
  read: ({ act, space, collections, scope, repoCollections }, base) => {
    const actor = (act as { sub?: unknown } | undefined)?.sub
    if (typeof actor !== 'string' || typeof space !== 'string' || typeof scope !== 'string') return null
    if (!Array.isArray(collections) || !collections.every((c) => typeof c === 'string')) return null
    const repo = Array.isArray(repoCollections) && repoCollections.every((c) => typeof c === 'string') ? { repoCollections: repoCollections as string[] } : {}
    return { ...base, actor, space, collections: collections as string[], scope, ...repo }
  },
}
