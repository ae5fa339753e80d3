import { isValidDid, isValidNsid, isValidRecordKey } from '@atproto/syntax'
import { formatSpaceAddress, isValidSpaceType } from './space-address.js'

/**
 * `space:` OAuth scopes (spec section 5.7):
 * `space:<space_type>?authority=<group_did>&skey=<skey>&collection=<c>…&action=<a>…`.
 * `@atproto/oauth-scopes` knows atproto's own resources (repo, rpc, blob…) but not this
 * one, so it is read here, by the host (what an app asks for, what a session's token
 * carries) and by the app (what it was granted) alike, with the same rules:
 *
 * - `authority` at most once. Without it, or as `*`, the scope is meant for every group
 *   (decisions 7.4: a published client cannot name groups it has never seen); the host
 *   narrows such a request to the one group signed in as, and grants name it.
 * - `skey` exactly once, a record key; `collection` at least once, each an NSID or `*`
 *   (every collection); `action` any of create, update, delete, none meaning all three
 *   (as for `repo:`). Values are percent-decoded, as URL query values are.
 * - Anything else (another parameter, a malformed value, an unknown action) makes the
 *   whole scope mean nothing: a partly understood permission is not a permission.
 */
export const SPACE_ACTIONS = ['create', 'update', 'delete'] as const
export type SpaceAction = (typeof SPACE_ACTIONS)[number]

export interface SpaceScope {
  type: string
  /** The group it is for; null for every group. */
  authority: string | null
  skey: string
  /** `*` for every collection. */
  collections: string[]
  actions: SpaceAction[]
}

/** A scope that applies to one group, with the address of its space there. */
export type GroupSpaceScope = SpaceScope & { authority: string; space: string }

const PREFIX = 'space:'
const ANY = '*'
const PARAMS = new Set(['authority', 'skey', 'collection', 'action'])

const isAction = (a: string): a is SpaceAction => (SPACE_ACTIONS as readonly string[]).includes(a)

/** One `space:` scope token, or null when it is not a well-formed one. */
export function parseSpaceScope(token: string): SpaceScope | null {
  if (!token.startsWith(PREFIX)) return null
  const q = token.indexOf('?')
  if (q < 0) return null
  const type = token.slice(PREFIX.length, q)
  if (!isValidSpaceType(type)) return null
  const params = new URLSearchParams(token.slice(q + 1))
  if ([...params.keys()].some((k) => !PARAMS.has(k))) return null
  const authorities = params.getAll('authority')
  const skeys = params.getAll('skey')
  const collections = [...new Set(params.getAll('collection'))]
  const actions = params.getAll('action')
  if (authorities.length > 1 || skeys.length !== 1 || !collections.length) return null
  const authority = authorities[0] === undefined || authorities[0] === ANY ? null : authorities[0]
  const skey = skeys[0]!
  if ((authority !== null && !isValidDid(authority)) || !isValidRecordKey(skey)) return null
  if (!collections.every((c) => c === ANY || isValidNsid(c)) || !actions.every(isAction)) return null
  return { type, authority, skey, collections, actions: actions.length ? [...new Set(actions)] : [...SPACE_ACTIONS] }
}

// `:` stays as is, as in atproto's own `rpc:…?aud=did:web:…` scopes; anything else
// outside the unreserved set is encoded.
const encode = (value: string) => encodeURIComponent(value).replace(/%3A/gi, ':')

/** A scope token in the shape hosts grant: every parameter named, in the spec's order. */
export function formatSpaceScope(s: SpaceScope): string {
  const params = [
    ...(s.authority === null ? [] : [`authority=${encode(s.authority)}`]),
    `skey=${encode(s.skey)}`,
    ...s.collections.map((c) => `collection=${encode(c)}`),
    ...s.actions.map((a) => `action=${a}`),
  ]
  return `${PREFIX}${s.type}?${params.join('&')}`
}

/** The `space:` scopes in a scope string (space-separated tokens); other tokens are not this parser's. */
export function spaceScopesIn(scope: string, maxTokens = Infinity): SpaceScope[] {
  return scope
    .split(' ')
    .slice(0, maxTokens)
    .flatMap((t) => parseSpaceScope(t) ?? [])
}

/** The `space:` scopes in a scope string that apply to `groupDid`, each naming it. */
export function spaceScopesFor(scope: string, groupDid: string, maxTokens = Infinity): GroupSpaceScope[] {
  return spaceScopesIn(scope, maxTokens)
    .filter((s) => s.authority === null || s.authority === groupDid)
    .map((s) => ({ ...s, authority: groupDid, space: formatSpaceAddress({ authority: groupDid, type: s.type, skey: s.skey }) }))
}
