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

  /**
   * The index as last read or written. This store is its only writer in the process (the
   * shells hold a single-instance lock), and it is read for every group on every poll of
   * the window, so it is read from the keychain once, not each time.
   */
  private known?: Promise<IndexedAccount[]>
  private index(): Promise<IndexedAccount[]> {
    this.known ??= this.secrets.get(ACCOUNT_INDEX_KEY).then(
      (raw) => (raw ? (JSON.parse(raw) as IndexedAccount[]) : []),
      (err: unknown) => {
        this.known = undefined
        throw err
      },
    )
    return this.known
  }

  private async write(index: IndexedAccount[]) {
    this.known = undefined
    await this.secrets.set(ACCOUNT_INDEX_KEY, JSON.stringify(index))
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
    await this.write(index)
  }

  /** The scope granted at the last sign-in, if known. */
  async grantedScope(did: string): Promise<string | undefined> {
    return (await this.index()).find((a) => a.did === did)?.scope
  }

  async remove(did: string): Promise<void> {
    await this.write((await this.index()).filter((a) => a.did !== did))
  }
}
