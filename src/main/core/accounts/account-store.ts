import type { SecretStore } from '../secrets/secret-store.js'
import { KeychainIndex } from '../secrets/keychain-index.js'
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

/** The signed-in accounts (same DID again: the handle may have changed). */
export class AccountStore extends KeychainIndex<IndexedAccount, Account> {
  constructor(secrets: SecretStore) {
    super(secrets, ACCOUNT_INDEX_KEY, sessionKey, (a, active) => ({ did: a.did, handle: a.handle, status: active ? 'active' : 'needs-sign-in' }))
  }

  override put(account: IndexedAccount): Promise<void> {
    return super.put({ did: account.did, handle: account.handle, ...(account.scope ? { scope: account.scope } : {}) })
  }

  /** The scope granted at the last sign-in, if known. */
  async grantedScope(did: string): Promise<string | undefined> {
    return (await this.entry(did))?.scope
  }
}
