import type { IdResolver } from '@atproto/identity'
import type { GroupSummary } from '../../../shared/ipc/views.js'
import { UserFacingError } from '../ipc/errors.js'
import type { NoticeHub } from '../ipc/notices.js'
import type { AccountRuntime } from '../session/account-runtime.js'
import type { AccountRuntimes } from '../groups/account-runtimes.js'
import type { GroupSyncing } from '../sync/group-syncing.js'
import type { ListPages } from '../reading/list-pages.js'
import { prepareAction, queuedAction, type RequestedAction } from './organizer-actions.js'
import { specOf } from '../actions/registry.js'
import { hostAddress } from '../groups/resolve-group.js'
import { errorFields, log } from '../log/log.js'

/** How long after a hold ends its catch-up starts: the outbox's own wake sends it first. */
const HOLD_SLACK_MS = 50

/**
 * What an organizer does: actions queued in the account's outbox with their cached
 * effect (shown at once, sent in the background, confirmed by the host's answer or its
 * change log), and starting a new group.
 */
export class OrganizerQueue {
  /** Sends started by act(), awaited on close so nothing writes to a closed cache. */
  private readonly inFlight = new Set<Promise<void>>()
  /** Sends waiting for an Undo hold to end; on close they are dropped (the rows stay queued for the next start). */
  private readonly afterHolds = new Set<ReturnType<typeof setTimeout>>()

  constructor(
    private readonly runtimes: AccountRuntimes,
    private readonly syncing: GroupSyncing,
    private readonly lists: ListPages,
    private readonly opts: { idResolver: IdResolver; hostFetch: typeof globalThis.fetch; defaultHostUrl?: string; notices?: NoticeHub },
  ) {}

  /**
   * Starts a new group on a host (the host mints its DID) with this account as owner,
   * and adds it to the account's list.
   */
  async createGroup(accountDid: string, input: { handle: string; displayName?: string; joinPolicy: string; hostUrl?: string }): Promise<GroupSummary> {
    const hostUrl = input.hostUrl ?? this.opts.defaultHostUrl
    if (!hostUrl) throw new UserFacingError('HostRequired', 'Choose the group host that will run the new group.')
    const rt = await this.runtimes.get(accountDid)
    const host = rt.host(await hostAddress(hostUrl, this.opts.idResolver, this.opts.hostFetch))
    const { did } = await host.procedure('example.groups.createGroup', {
      handle: input.handle.toLowerCase(),
      joinPolicy: input.joinPolicy,
      ...(input.displayName ? { displayName: input.displayName } : {}),
    })
    return this.syncing.addGroup(accountDid, did)
  }

  /**
   * Queues an organizer action with its cached effect, then tries to send the queue.
   * Returns at once: the result shows in the outbox and, once sent, in the lists.
   * `holdMs` keeps it back that long first, so the person can undo it (outbox.cancel)
   * before anything reaches the host; the group's later actions wait behind it, in order.
   */
  async act(accountDid: string, groupDid: string, action: RequestedAction, holdMs?: number): Promise<number> {
    const [id] = await this.actMany(accountDid, groupDid, [action], holdMs)
    return id!
  }

  /** Queues several actions in one transaction (all or none), then sends the queue once. */
  async actMany(accountDid: string, groupDid: string, actions: RequestedAction[], holdMs?: number): Promise<number[]> {
    const rt = await this.runtimes.get(accountDid)
    const cache = await this.runtimes.cacheOf(accountDid, groupDid)
    // queuedAction gives a new event its record key now, so a replay re-sends the same record.
    const queued = actions.map((action) => queuedAction(action, accountDid))
    // Each is checked against the cache first (all before any is queued), e.g. that the group has no such space yet.
    for (const { kind, payload } of queued) await specOf(kind).validate?.(cache, groupDid, payload)
    const ids = await rt.outbox.enqueueMany(queued.map(({ kind, payload }) => ({ ...prepareAction(groupDid, kind, payload), holdMs })))
    this.lists.warm(rt.cache, accountDid, groupDid)
    this.opts.notices?.emit('group.changed', { accountDid, groupDid })
    this.sendSoon(rt, groupDid)
    // The outbox sends a held action when its hold ends by itself; this is for the
    // catch-up after it (what the host answered settles the lists), as after any send.
    if (holdMs && holdMs > 0) {
      const timer = setTimeout(() => {
        this.afterHolds.delete(timer)
        this.sendSoon(rt, groupDid)
      }, holdMs + HOLD_SLACK_MS)
      timer.unref?.()
      this.afterHolds.add(timer)
    }
    return ids
  }

  private sendSoon(rt: AccountRuntime, groupDid: string) {
    const sending = this.sendAndCatchUp(rt, groupDid).finally(() => this.inFlight.delete(sending))
    this.inFlight.add(sending)
  }

  /** Cancels an action of this account's not yet sent, and takes back its cached effect (outbox.cancel). */
  async cancel(accountDid: string, id: number): Promise<void> {
    const rt = await this.runtimes.ofKnown(accountDid)
    const { groupDid } = await rt.outbox.cancel(id)
    this.lists.warm(rt.cache, accountDid, groupDid)
    this.opts.notices?.emit('group.changed', { accountDid, groupDid })
  }

  /** Sends an action of this account's now: a backed-off one without waiting, a failed one again (outbox.retry). */
  async retry(accountDid: string, id: number): Promise<void> {
    const rt = await this.runtimes.ofKnown(accountDid)
    const { groupDid } = await rt.outbox.retry(id)
    this.sendSoon(rt, groupDid)
  }

  /** Removes for good an action of this account's that was not applied (outbox.dismiss). */
  async dismiss(accountDid: string, id: number): Promise<void> {
    const rt = await this.runtimes.ofKnown(accountDid)
    await rt.outbox.dismiss(id)
  }

  /**
   * Sends the group's queue (other groups' hosts are not waited for), then settles the group: what the host took of ours is
   * applied from what we sent and what the host answered, or else the change log (no
   * list is read again for it).
   */
  private async sendAndCatchUp(rt: AccountRuntime, groupDid: string): Promise<void> {
    await rt.outbox.replay(groupDid).catch((err: unknown) => log.error('outbox', 'replay failed', errorFields(err, { stack: true })))
    await this.syncing.afterSending(rt, groupDid).catch((err: unknown) => log.error('sync', 'refresh failed', { groupDid, ...errorFields(err) }))
  }

  /** Resolves once the sends under way (and their catch-ups) have finished. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.inFlight])
  }

  /** Lets sends under way end before the caches close. */
  close(): Promise<void> {
    for (const timer of this.afterHolds) clearTimeout(timer)
    this.afterHolds.clear()
    return this.idle()
  }
}
