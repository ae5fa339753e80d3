import type { SecretStore } from './secret-store.js'

/**
 * A list of DIDs with what is known of each (handle, granted scope…), kept in the
 * keychain beside their sessions, so nothing is ever listed without a place for its
 * session. An entry whose session is gone (revoked, expired) stays listed, shown as
 * needing sign-in, until it is removed: nothing queued for it is lost. The signed-in
 * accounts and the groups acted as are the two such lists.
 */
export class KeychainIndex<Entry extends { did: string }, View extends { did: string }> {
  /**
   * @param indexKey the keychain item holding the list
   * @param sessionKey the keychain item of one DID's session
   * @param view what callers see of an entry, given whether its session is there
   */
  constructor(
    private readonly secrets: SecretStore,
    private readonly indexKey: string,
    private readonly sessionKey: (did: string) => string,
    private readonly view: (entry: Entry, active: boolean) => View,
  ) {}

  /**
   * The list as last read or written. Each index is written by its one store in the
   * process (the shells hold a single-instance lock), and the account list is read for
   * every group on every sync, so it is read from the keychain once, not each time.
   */
  private known?: Promise<Entry[]>
  protected entries(): Promise<Entry[]> {
    this.known ??= this.secrets.get(this.indexKey).then(
      (raw) => (raw ? (JSON.parse(raw) as Entry[]) : []),
      (err: unknown) => {
        this.known = undefined
        throw err
      },
    )
    return this.known
  }

  private async write(entries: Entry[]): Promise<void> {
    this.known = undefined
    await this.secrets.set(this.indexKey, JSON.stringify(entries))
  }

  async list(): Promise<View[]> {
    const entries = await this.entries()
    // Every session key is the prefix followed by the DID.
    const withSessions = new Set(await this.secrets.keys(this.sessionKey('')))
    return entries.map((e) => this.view(e, withSessions.has(this.sessionKey(e.did))))
  }

  async get(did: string): Promise<View | undefined> {
    return (await this.list()).find((v) => v.did === did)
  }

  protected async entry(did: string): Promise<Entry | undefined> {
    return (await this.entries()).find((e) => e.did === did)
  }

  /** Adds or replaces the entry of its DID. */
  async put(entry: Entry): Promise<void> {
    await this.write([...(await this.entries()).filter((e) => e.did !== entry.did), entry])
  }

  /** Changes the entry of a DID, if listed; nothing is written when nothing changed. */
  protected async update(did: string, change: (entry: Entry) => Entry): Promise<void> {
    const entries = await this.entries()
    const at = entries.findIndex((e) => e.did === did)
    if (at < 0) return
    const changed = change(entries[at]!)
    if (JSON.stringify(changed) === JSON.stringify(entries[at])) return
    await this.write(entries.map((e, i) => (i === at ? changed : e)))
  }

  async remove(did: string): Promise<void> {
    await this.write((await this.entries()).filter((e) => e.did !== did))
  }
}
