import type { SecretStore } from '../secrets/secret-store.js'
import { KeychainIndex } from '../secrets/keychain-index.js'
import { groupAbilities } from '../../../shared/group-scope.js'
import type { GroupSession } from '../../../shared/ipc/contract.js'

/**
 * Keychain item names for acting as a group. A group session (tokens and DPoP key) is
 * kept apart from accounts' sessions, so it never shows up as an account and signing
 * out of one never touches the other.
 */
const GROUP_SESSION_INDEX_KEY = 'group-sessions'
export const groupSessionKey = (did: string) => `group-session:${did}`

interface IndexedGroupSession {
  did: string
  /** Shown only when it resolved to the group's DID. */
  handle: string | null
  hostUrl: string
  /** What the host granted (token info): not a secret; it decides what is offered. */
  scope: string
}

/** The groups this computer acts as. */
export class GroupSessionStore extends KeychainIndex<IndexedGroupSession, GroupSession> {
  constructor(secrets: SecretStore) {
    super(secrets, GROUP_SESSION_INDEX_KEY, groupSessionKey, (g, active) => ({
      did: g.did,
      handle: g.handle,
      hostUrl: g.hostUrl,
      status: active ? 'active' : 'needs-sign-in',
      // An ended session may do nothing, whatever it was granted.
      abilities: active ? groupAbilities(g.scope, g.did) : [],
    }))
  }

  /** Records a narrower (or wider) grant seen on a later use of the session. */
  updateScope(did: string, scope: string): Promise<void> {
    return this.update(did, (g) => ({ ...g, scope }))
  }
}
