import type { IdResolver } from '@atproto/identity'
import type { Accounts } from '../accounts/accounts.js'
import type { NoticeHub } from '../ipc/notices.js'
import type { AccountRuntime } from '../session/account-runtime.js'
import { AccountRuntimes } from './account-runtimes.js'
import { GroupNoticeDetail } from '../reading/group-notices.js'
import { GroupReading } from '../reading/group-reading.js'
import { GroupSyncing } from '../sync/group-syncing.js'
import { ListPages } from '../reading/list-pages.js'
import { OrganizerQueue } from '../queue/organizer-queue.js'
import { LiveChanges } from '../live/live-changes.js'
import type { Profile } from '../people/profile-reader.js'
import { rememberHandle } from '../people/list-handles.js'
import { TodayService } from '../today/today-service.js'
import type { WalkInResolver } from '../people/walk-in-lookup.js'

export interface GroupServiceOptions {
  accounts: Accounts
  dataDir: string
  idResolver: IdResolver
  resolveHandle: (handle: string) => Promise<string | null>
  /** The guarded fetch for group hosts named in DID documents (node/safe-fetch.ts, createPeerFetch). */
  hostFetch: typeof globalThis.fetch
  /** The guarded fetch for calls to group hosts' methods and a credential's writes (node/safe-fetch.ts, createHostCallFetch). */
  hostCalls: typeof globalThis.fetch
  /** Where new groups are started when the person names no host (the local network's). */
  defaultHostUrl?: string
  /** Reads a person's profile from their own PDS (people/profile-reader.ts), after each sync; none read without it. */
  readProfile?: (did: string) => Promise<Profile>
  /** Where change notices go (to the window): which group, list or outbox moved, told what they now are (group-notices.ts). */
  notices?: NoticeHub
  /** A door walk-in's handle to their DID, checked both ways, when the check-in is sent (people/walk-in-lookup.ts). */
  walkIns?: WalkInResolver
  /** A lost live connection's wait before each try (CoreOptions.liveRetryDelayMs). */
  liveRetryDelayMs?: (attempt: number) => number
}

/**
 * The organizer's groups across every signed-in account, in three parts that share the
 * accounts' runtimes and the kept sorted lists: `reading` (what the window shows, from
 * the cache), `syncing` (keeping the cache up to date with the hosts) and `organizing`
 * (actions queued in the outbox, new groups), with `live` keeping connections to the
 * hosts that push changes as they happen.
 */
export class GroupService {
  readonly reading: GroupReading
  readonly syncing: GroupSyncing
  readonly organizing: OrganizerQueue
  /** Live connections to the hosts (started by the core when it keeps groups up to date). */
  readonly live: LiveChanges
  /** Today: what waits for the person across every group, from the caches (today/). */
  readonly today: TodayService
  private readonly runtimes: AccountRuntimes

  constructor(opts: GroupServiceOptions) {
    const lists = new ListPages()
    this.runtimes = new AccountRuntimes(opts)
    opts.notices?.describeWith(new GroupNoticeDetail(this.runtimes))
    this.reading = new GroupReading(this.runtimes, lists)
    this.syncing = new GroupSyncing(this.runtimes, lists, opts)
    this.organizing = new OrganizerQueue(this.runtimes, this.syncing, lists, opts)
    this.live = new LiveChanges({ runtimes: this.runtimes, accounts: opts.accounts, syncing: this.syncing, notices: opts.notices, retryDelayMs: opts.liveRetryDelayMs })
    this.syncing.liveStates = () => this.live.states()
    this.syncing.hostAnswered = (accountDid, groupDid) => this.live.hostAnswered(accountDid, groupDid)
    this.today = new TodayService(() => this.runtimes.all(), opts.notices)
  }

  /** One account's runtime (its cache, outbox and tokens). */
  runtime(accountDid: string): Promise<AccountRuntime> {
    return this.runtimes.get(accountDid)
  }

  /**
   * Keeps a handle just checked both ways (someone typed it, or their DID, to invite
   * them) in every account's cache, so what is queued next names them at once
   * (people/list-handles.ts) instead of waiting for the next lookup pass.
   */
  async rememberHandle(did: string, handle: string): Promise<void> {
    for (const rt of await this.runtimes.all()) await rememberHandle(rt.cache, did, handle)
  }

  /** Sends under way finish, then background work stops, then the caches close. */
  async close(): Promise<void> {
    await this.live.close()
    this.today.close()
    this.reading.close()
    await this.organizing.close()
    await this.syncing.close()
    await this.runtimes.close()
  }
}
