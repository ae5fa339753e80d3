import type { SecretStore } from '../secrets/secret-store.js'
import type { Account } from '../../../shared/ipc/contract.js'

/** Keychain item names. Sessions hold tokens and DPoP keys; the index holds neither. */
export const ACCOUNT_INDEX_KEY = 'accounts'
export const sessionKey = (did: string) => `session:${did}`

interface IndexedAccount {
  did: string
  handle: string
  /** What the PDS granted at the last sign-in (its token info): not a secret. */
  scope?: string
}

/**
 * The signed-in accounts. The list itself is kept beside the sessions in the keychain,
 * so an account is never shown without a place for its session. An account whose
 * session is gone (revoked, expired) stays listed as needing sign-in, so nothing
 * queued for it is lost.
 */
export class AccountStore {
  constructor(private readonly secrets: SecretStore) {}

  private async index(): Promise<IndexedAccount[]> {
    const raw = await this.secrets.get(ACCOUNT_INDEX_KEY)
    return raw ? (JSON.parse(raw) as IndexedAccount[]) : []
  }

  async list(): Promise<Account[]> {
    const index = await this.index()
    const withSessions = new Set(await this.secrets.keys('session:'))
    return index.map((a) => ({
      did: a.did,
      handle: a.handle,
      status: withSessions.has(sessionKey(a.did)) ? ('active' as const) : ('needs-sign-in' as const),
    }))
  }

  async get(did: string): Promise<Account | undefined> {
    return (await this.list()).find((a) => a.did === did)
  }

  /** Adds or updates an account (same DID: the handle may have changed). */
  async put(account: IndexedAccount): Promise<void> {
    const index = (await this.index()).filter((a) => a.did !== account.did)
    index.push({ did: account.did, handle: account.handle, ...(account.scope ? { scope: account.scope } : {}) })
    await this.secrets.set(ACCOUNT_INDEX_KEY, JSON.stringify(index))
  }

  /** The scope granted at the last sign-in, if known. */
  async grantedScope(did: string): Promise<string | undefined> {
    return (await this.index()).find((a) => a.did === did)?.scope
  }

  async remove(did: string): Promise<void> {
    const index = (await this.index()).filter((a) => a.did !== did)
    await this.secrets.set(ACCOUNT_INDEX_KEY, JSON.stringify(index))
  }
}
