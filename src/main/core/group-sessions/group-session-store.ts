import type { SecretStore } from '../secrets/secret-store.js'
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

/**
 * The groups this computer acts as. Like the account list it lives in the keychain beside
 * the sessions; a group whose session is gone (revoked, expired) stays listed as needing
 * sign-in until the person signs out of it.
 */
export class GroupSessionStore {
  constructor(private readonly secrets: SecretStore) {}

  private async index(): Promise<IndexedGroupSession[]> {
    const raw = await this.secrets.get(GROUP_SESSION_INDEX_KEY)
    return raw ? (JSON.parse(raw) as IndexedGroupSession[]) : []
  }

  private write(index: IndexedGroupSession[]) {
    return this.secrets.set(GROUP_SESSION_INDEX_KEY, JSON.stringify(index))
  }

  async list(): Promise<GroupSession[]> {
    const index = await this.index()
    const withSessions = new Set(await this.secrets.keys('group-session:'))
    return index.map((g) => {
      const active = withSessions.has(groupSessionKey(g.did))
      // An ended session may do nothing, whatever it was granted.
      return { did: g.did, handle: g.handle, hostUrl: g.hostUrl, status: active ? ('active' as const) : ('needs-sign-in' as const), abilities: active ? groupAbilities(g.scope, g.did) : [] }
    })
  }

  async get(did: string): Promise<GroupSession | undefined> {
    return (await this.list()).find((g) => g.did === did)
  }

  async put(entry: IndexedGroupSession): Promise<void> {
    const index = (await this.index()).filter((g) => g.did !== entry.did)
    index.push(entry)
    await this.write(index)
  }

  /** Records a narrower (or wider) grant seen on a later use of the session. */
  async updateScope(did: string, scope: string): Promise<void> {
    const index = await this.index()
    const entry = index.find((g) => g.did === did)
    if (!entry || entry.scope === scope) return
    entry.scope = scope
    await this.write(index)
  }

  async remove(did: string): Promise<void> {
    await this.write((await this.index()).filter((g) => g.did !== did))
  }
}
