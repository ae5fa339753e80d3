import type { Space } from './space.js'

/** What a group credential may do with each collection it names. */
export const GRANTED_ACTIONS = ['create', 'update', 'delete'] as const

// Scope values are DIDs, record keys, NSIDs and `*`: `:` stays as is (as in atproto's
// own `rpc:…?aud=did:web:…` scopes); anything else outside the unreserved set is encoded.
const encode = (value: string) => encodeURIComponent(value).replace(/%3A/gi, ':')

/**
 * The granted scope, shaped as spec section 5.7 has it:
 * `atproto space:<space_type>?authority=<group_did>&skey=<skey>&collection=<c>…&action=create&action=update&action=delete`.
 */
export function spaceScope(space: Pick<Space, 'groupDid' | 'type' | 'skey'>, collections: string[]): string {
  const params = [
    `authority=${encode(space.groupDid)}`,
    `skey=${encode(space.skey)}`,
    ...collections.map((c) => `collection=${encode(c)}`),
    ...GRANTED_ACTIONS.map((a) => `action=${a}`),
  ]
  return `atproto space:${encode(space.type)}?${params.join('&')}`
}
