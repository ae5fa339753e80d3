import type { Accounts } from '../accounts/accounts.js'
import type { AccountRuntimes } from '../groups/account-runtimes.js'
import type { GroupSyncing } from '../sync/group-syncing.js'
import type { GroupView } from '@node/lexicon/types/example/groups/defs.js'
import type { NoticeHub } from '../ipc/notices.js'
import { errorFields, log } from '../log/log.js'
import type { AccountRuntime } from '../session/account-runtime.js'
import type { HostAddress } from '../xrpc/host-client.js'
import { LiveConnection, SUBSCRIBE_CHANGES, type LiveState } from './live-connection.js'
import { readLiveCursor, writeLiveCursor } from './live-cursor.js'

/** A token this close to expiry is not worth a connection: a fresh one is minted. */
const MIN_TOKEN_LIFE_S = 10 * 60
/** Notices that may change which connections are wanted come in bursts (a sync touches every group). */
const RECONCILE_AFTER_MS = 200

interface Held {
  accountDid: string
  host: HostAddress
  connection: LiveConnection
  /** The account's followed groups on this host where it holds a role: what the stream covers. */
  groups: Set<string>
}

/** One account's live connection to one host, as the window is shown it. */
export interface LiveConnectionState extends LiveState {
  accountDid: string
  hostUrl: string
}

/**
 * The app's live connections: one per signed-in account and group host where the account
 * holds a role in a group it follows (live-connection.ts does the connecting). Which are
 * wanted is worked out again whenever groups, accounts or a group's roles change. While a
 * connection is live, its groups need no periodic catch-up (`covers`); a pushed change
 * that could not be applied leaves its group to the next catch-up.
 */
export class LiveChanges {
  private readonly held = new Map<string, Held>()
  /** Groups (`account group`) whose pushed change failed: the background pass catches them up. */
  private readonly behind = new Set<string>()
  private unsubscribe: (() => void) | null = null
  private timer: ReturnType<typeof setTimeout> | null = null
  private reconciling: Promise<void> | null = null
  private again = false
  private closed = false

  constructor(
    private readonly opts: {
      runtimes: AccountRuntimes
      accounts: Accounts
      syncing: GroupSyncing
      notices?: NoticeHub
      /** Stands in for the WebSocket in tests. */
      openSocket?: ConstructorParameters<typeof LiveConnection>[0]['openSocket']
      /** A lost connection's wait before each try (default: backoff.ts). */
      retryDelayMs?: (attempt: number) => number
    },
  ) {}

  start(): void {
    this.unsubscribe =
      this.opts.notices?.subscribe((n) => {
        if (n.name === 'groups.changed' || n.name === 'account.state' || n.name === 'group.changed') this.reconcileSoon()
      }) ?? null
    this.reconcileSoon()
  }

  /** Whether a live connection keeps this group up to date just now (the background pass leaves it out). */
  covers(accountDid: string, groupDid: string): boolean {
    if (this.behind.has(`${accountDid} ${groupDid}`)) return false
    for (const h of this.held.values()) {
      if (h.accountDid === accountDid && h.groups.has(groupDid)) return h.connection.state.state === 'live'
    }
    return false
  }

  /** Every connection's state, for the window. */
  states(): LiveConnectionState[] {
    return [...this.held.values()].map((h) => ({ accountDid: h.accountDid, hostUrl: h.host.url, ...h.connection.state }))
  }

  /**
   * The group's host just answered this account (an action went through): a connection
   * to it waiting out a back-off after an outage tries again now, rather than up to a
   * minute after the host is back.
   */
  hostAnswered(accountDid: string, groupDid: string): void {
    for (const h of this.held.values()) {
      if (h.accountDid === accountDid && h.groups.has(groupDid)) h.connection.retryNow()
    }
  }

  /** A group was caught up from its change log: pushed changes apply to it again. */
  caughtUp(accountDid: string, groupDid: string): void {
    this.behind.delete(`${accountDid} ${groupDid}`)
  }

  async close(): Promise<void> {
    this.closed = true
    this.unsubscribe?.()
    if (this.timer) clearTimeout(this.timer)
    await this.reconciling
    await Promise.all([...this.held.values()].map((h) => h.connection.close()))
    this.held.clear()
  }

  private reconcileSoon() {
    if (this.closed || this.timer) return
    this.timer = setTimeout(() => {
      this.timer = null
      void this.reconcile()
    }, RECONCILE_AFTER_MS)
    this.timer.unref?.()
  }

  private async reconcile(): Promise<void> {
    if (this.reconciling) {
      this.again = true
      return this.reconciling
    }
    this.reconciling = this.reconcileNow()
      .catch((err: unknown) => log.error('live', 'could not work out the live connections', errorFields(err)))
      .finally(() => (this.reconciling = null))
    await this.reconciling
    if (this.again && !this.closed) {
      this.again = false
      await this.reconcile()
    }
  }

  private async reconcileNow(): Promise<void> {
    const wanted = new Map<string, { accountDid: string; host: HostAddress; groups: Set<string> }>()
    for (const account of await this.opts.accounts.store.list()) {
      if (account.status !== 'active') continue
      const rt = await this.opts.runtimes.get(account.did)
      for (const row of await rt.cache.selectFrom('group_row').select(['did', 'view', 'hostUrl', 'hostAud']).execute()) {
        // Someone only asking to join may not read the group's changes: polled as before.
        if (!((JSON.parse(row.view) as GroupView).viewer?.roles.length ?? 0)) continue
        const key = `${account.did} ${row.hostUrl}`
        const w = wanted.get(key) ?? { accountDid: account.did, host: { url: row.hostUrl, aud: row.hostAud }, groups: new Set<string>() }
        w.groups.add(row.did)
        wanted.set(key, w)
      }
    }
    if (this.closed) return
    let moved = false
    for (const [key, h] of this.held) {
      if (wanted.has(key)) continue
      this.held.delete(key)
      moved = true
      await h.connection.close()
    }
    for (const [key, w] of wanted) {
      const h = this.held.get(key)
      if (h) {
        h.groups = w.groups
        continue
      }
      const rt = await this.opts.runtimes.get(w.accountDid)
      const held: Held = { ...w, connection: this.connect(rt, w.host, () => held.groups) }
      this.held.set(key, held)
      held.connection.start()
      moved = true
    }
    if (moved) this.announce()
  }

  private connect(rt: AccountRuntime, host: HostAddress, groups: () => Set<string>): LiveConnection {
    const { syncing } = this.opts
    const catchUpAll = () => {
      for (const g of groups()) {
        void syncing
          .catchUp(rt, g)
          .then(() => this.caughtUp(rt.did, g))
          .catch((err: unknown) => log.warn('live', 'catch-up after connecting failed', { groupDid: g, ...errorFields(err) }))
      }
    }
    return new LiveConnection({
      hostUrl: host.url,
      token: async () => {
        const t = await rt.auth.entry(host.aud, SUBSCRIBE_CHANGES)
        if (t.exp - Date.now() / 1000 >= MIN_TOKEN_LIFE_S) return t
        rt.auth.drop(host.aud, SUBSCRIBE_CHANGES)
        return rt.auth.entry(host.aud, SUBSCRIBE_CHANGES)
      },
      dropToken: () => rt.auth.drop(host.aud, SUBSCRIBE_CHANGES),
      readCursor: () => readLiveCursor(rt.cache, host.url),
      writeCursor: (cursor) => writeLiveCursor(rt.cache, host.url, cursor),
      apply: async (group, changes, cursor) => {
        try {
          await syncing.applyPushed(rt, group, changes, cursor)
        } catch (err) {
          // Its own cursor did not move: the next background pass reads what was missed.
          this.behind.add(`${rt.did} ${group}`)
          log.warn('live', 'a pushed change could not be applied; the group waits for the next catch-up', { groupDid: group, ...errorFields(err) })
        }
      },
      behind: (group) => this.behind.add(`${rt.did} ${group}`),
      outdated: async () => {
        for (const g of groups()) {
          await syncing.refresh(rt.did, g).catch((err: unknown) => {
            this.behind.add(`${rt.did} ${g}`)
            log.warn('live', 'reading the group whole failed', { groupDid: g, ...errorFields(err) })
          })
        }
      },
      opened: (resumed) => {
        if (!resumed) catchUpAll()
      },
      onState: () => this.announce(),
      openSocket: this.opts.openSocket,
      retryDelayMs: this.opts.retryDelayMs,
    })
  }

  /** The window hears of connection states with the sync's progress (the same view). */
  private announce() {
    this.opts.syncing.announce()
  }
}
