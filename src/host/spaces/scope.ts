import type { Space } from './space.js'
import { formatSpaceScope, SPACE_ACTIONS } from '../../shared/space-scope.js'

/** What a group credential may do with each collection it names. */
export const GRANTED_ACTIONS = SPACE_ACTIONS

/**
 * The granted scope, shaped as spec section 5.7 has it:
 * `atproto space:<space_type>?authority=<group_did>&skey=<skey>&collection=<c>…&action=create&action=update&action=delete`.
 */
export function spaceScope(space: Pick<Space, 'groupDid' | 'type' | 'skey'>, collections: string[]): string {
  return `atproto ${formatSpaceScope({ type: space.type, authority: space.groupDid, skey: space.skey, collections, actions: [...GRANTED_ACTIONS] })}`
}
