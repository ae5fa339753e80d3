import type { OAuthSession } from '@atproto/oauth-client'
import type { CacheDb } from '../cache/cache-db.js'
import { GroupCredentials } from '../credentials/group-credentials.js'
import { openCacheDb } from '../cache/cache-db.js'
import type { Accounts } from '../accounts/accounts.js'
import { Outbox, type ActionHandler } from '../outbox/outbox.js'
import { HostClient, type HostAddress } from '../xrpc/host-client.js'
import { ServiceAuthCache } from '../xrpc/service-auth-cache.js'
import { checkGrantedScope, mintWithSession } from './mint-service-auth.js'
import { lookupUnavailable, type WalkInResolver } from '../people/walk-in-lookup.js'

/**
 * Everything one signed-in account works with: its cache and outbox (one SQLite file),
 * its service-auth tokens, and a client per group host.
 */
export class AccountRuntime {
  readonly auth: ServiceAuthCache
  readonly credentials: GroupCredentials
  /** The account's OAuth session (for writes to its own PDS). */
  readonly session: () => Promise<OAuthSession>
  /** The scope the PDS granted at sign-in (token info), when known. */
  readonly grantedScope: () => Promise<string | undefined>
  private readonly hosts = new Map<string, HostClient>()
  /** Spaces known to exist, so a repeated write does not look them up again. */
  readonly knownSpaces = new Set<string>()
  outbox!: Outbox
  /** A door walk-in's handle to their DID when their check-in is sent (people/walk-in-lookup.ts); none given: never found now, so kept. */
  walkIns: WalkInResolver = (handle) => Promise.reject(lookupUnavailable(handle))

  private constructor(
    readonly did: string,
    readonly cache: CacheDb,
    accounts: Accounts,
    /** The guarded fetch for group hosts' methods (node/safe-fetch.ts createHostCallFetch). */
    private readonly hostCalls: typeof globalThis.fetch,
  ) {
    this.session = () => accounts.session(did)
    this.grantedScope = () => accounts.store.grantedScope(did)
    this.auth = new ServiceAuthCache(checkGrantedScope(this.grantedScope, mintWithSession(this.session)))
    this.credentials = new GroupCredentials(this.auth, hostCalls)
  }

  static async open(opts: {
    did: string
    accounts: Accounts
    hostCalls: typeof globalThis.fetch
    cacheDir: string
    actions: (rt: AccountRuntime) => Record<string, ActionHandler>
    /** Which outbox rows changed (none named: some did). */
    onOutboxChange?: (ids?: number[]) => void
    walkIns?: WalkInResolver
  }): Promise<AccountRuntime> {
    const rt = new AccountRuntime(opts.did, await openCacheDb(opts.cacheDir, opts.did), opts.accounts, opts.hostCalls)
    if (opts.walkIns) rt.walkIns = opts.walkIns
    rt.outbox = new Outbox(rt.cache, opts.actions(rt), opts.onOutboxChange)
    await rt.outbox.recoverInterrupted()
    return rt
  }

  host(address: HostAddress): HostClient {
    let client = this.hosts.get(address.url)
    if (!client) this.hosts.set(address.url, (client = new HostClient(address, this.auth, this.hostCalls)))
    return client
  }

  async hostOf(groupDid: string): Promise<HostClient> {
    const row = await this.cache.selectFrom('group_row').select(['hostUrl', 'hostAud']).where('did', '=', groupDid).executeTakeFirst()
    if (!row) throw new Error(`group ${groupDid} is not in this account's list`)
    return this.host({ url: row.hostUrl, aud: row.hostAud })
  }

  async close(): Promise<void> {
    await this.outbox.close()
    await this.cache.destroy()
  }
}
