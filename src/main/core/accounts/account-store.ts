import type { SecretStore } from '../secrets/secret-store.js'
import type { Account } from '../../../shared/ipc/contract.js'

/** Keychain item names. Sessions hold tokens and DPoP keys; the index holds neither. */
export const ACCOUNT_INDEX_KEY = 'accounts'
export const sessionKey = (did: string) => `session:${did}`

interface IndexedAccount {
  did: string
  handle: string
}

/**
 * The signed-in accounts. The list itself is kept beside the sessions in the keychain,
 * so an account is never shown without a place for its session, and removing the
 * keychain entry removes both.
 */
export class AccountStore {
  constructor(private readonly secrets: SecretStore) {}

  async list(): Promise<Account[]> {
    const raw = await this.secrets.get(ACCOUNT_INDEX_KEY)
    const index = raw ? (JSON.parse(raw) as IndexedAccount[]) : []
    const withSessions = new Set(await this.secrets.keys('session:'))
    return index.map((a) => ({
      did: a.did,
      handle: a.handle,
      status: withSessions.has(sessionKey(a.did)) ? ('active' as const) : ('needs-sign-in' as const),
    }))
  }
}
