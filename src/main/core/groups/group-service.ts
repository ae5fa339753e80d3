import path from 'node:path'
import type { IdResolver } from '@atproto/identity'
import type { EventItem, SpaceItem, GroupSummary, InviteItem, JoinRequestPage, MemberItem, OpenJoinRequests, OutboxItem, SubjectPage, SyncStatus } from '../../../shared/ipc/views.js'
import type { Accounts } from '../accounts/sign-in.js'
import { readItems } from '../cache/items.js'
import { AccountRuntime } from '../session/account-runtime.js'
import { UserFacingError } from '../ipc/errors.js'
import { cachedSummary, refreshGroup, hasChanges } from './group-sync.js'
import { actionHandlers, actionTarget, prepareAction, queuedAction, type RequestedAction } from './organizer-actions.js'
import { hostAddress, resolveGroup } from './resolve-group.js'
import { ListPages, type ListPage, type ListQuery, type ListShape } from './list-pages.js'
import { memberList } from './member-list.js'
import { joinRequestList } from './join-request-list.js'
import { inviteList } from './invite-list.js'
import { fillListHandles, PER_PASS } from '../people/list-handles.js'
import { verifiedHandle } from '../people/resolve-person.js'
import { inView, subjectList, type SubjectFilter } from './subject-list.js'
import { SyncProgress } from './sync-progress.js'
import { errorFields, log } from '../log/log.js'

export interface GroupServiceOptions {
  accounts: Accounts
  dataDir: string
  idResolver: IdResolver
  resolveHandle: (handle: string) => Promise<string | null>
  /** Where new groups are started when the person names no host (the local network's). */
  defaultHostUrl?: string
  /** Told when cached data or the outbox changed, so the renderer can reload. */
  onChange?: () => void
}

/** Handle lookups after one sync, at most (× PER_PASS people). */
const HANDLE_PASSES_PER_SYNC = 10

/**
 * The organizer's groups across every signed-in account: cached views shown at once,
 * refreshed from hosts in the background, and actions queued in each account's outbox.
 */
export class GroupService {
  private readonly runtimes = new Map<string, Promise<AccountRuntime>>()
  /** Sends started by act(), awaited on close so nothing writes to a closed cache. */
  private readonly inFlight = new Set<Promise<void>>()
  private readonly lists = new ListPages()
  private listsPrepared = false
  private closed = false
  private readonly progress = new SyncProgress()

  constructor(private readonly opts: GroupServiceOptions) {}

  runtime(accountDid: string): Promise<AccountRuntime> {
    let rt = this.runtimes.get(accountDid)
    if (!rt) {
      rt = AccountRuntime.open({
        did: accountDid,
        accounts: this.opts.accounts,
        cacheDir: path.join(this.opts.dataDir, 'cache'),
        actions: actionHandlers,
        onOutboxChange: this.opts.onChange,
      })
      this.runtimes.set(accountDid, rt)
    }
    return rt
  }

  /** Every group of every account, from the cache: no network. */
  async listGroups(): Promise<GroupSummary[]> {
    const out: GroupSummary[] = []
    for (const account of await this.opts.accounts.store.list()) {
      const rt = await this.runtime(account.did)
      const rows = await rt.cache.selectFrom('group_row').select('did').execute()
      for (const { did } of rows) {
        const summary = await cachedSummary(rt, did)
        if (summary) out.push(summary)
      }
    }
    this.prepareListsOnce(out)
    return out
  }

  /**
   * Once per run, when the window first lists the groups: sorts each group's long lists
   * ahead, one at a time in the background, so the first visit to any of them after the
   * app starts finds them ready instead of reading and sorting thousands on the way.
   */
  private prepareListsOnce(groups: GroupSummary[]) {
    if (this.listsPrepared) return
    this.listsPrepared = true
    const work = groups.slice(0, ListPages.KEPT / 2).flatMap((g) => [
      { g, shape: memberList(g.allRoles) as ListShape<unknown> },
      { g, shape: joinRequestList as ListShape<unknown> },
    ])
    const next = async () => {
      const item = work.shift()
      if (!item || this.closed) return
      const rt = await this.runtime(item.g.accountDid)
      await this.lists.prepare(rt.cache, item.g.accountDid, item.g.did, item.shape).catch(() => {})
      setImmediate(() => void next())
    }
    setImmediate(() => void next())
  }

  /** Adds a group by handle or DID to an account's list, resolving its host. */
  async addGroup(accountDid: string, ref: string): Promise<GroupSummary> {
    const rt = await this.runtime(accountDid)
    const group = await resolveGroup(ref, { idResolver: this.opts.idResolver, resolveHandle: this.opts.resolveHandle })
    await rt.cache
      .insertInto('group_row')
      .values({ did: group.did, view: JSON.stringify({ did: group.did, handle: group.handle, joinPolicy: 'unknown', roles: [] }), hostUrl: group.host.url, hostAud: group.host.aud, changeCursor: null, syncedAt: null })
      .onConflict((oc) => oc.column('did').doUpdateSet({ hostUrl: group.host.url, hostAud: group.host.aud }))
      .execute()
    return this.progress.track(accountDid, group.did, (report) => this.refreshGroup(rt, group.did, report))
  }

  async removeGroup(accountDid: string, groupDid: string): Promise<void> {
    const rt = await this.runtime(accountDid)
    await rt.cache.transaction().execute(async (tx) => {
      await tx.deleteFrom('item').where('groupDid', '=', groupDid).execute()
      await tx.deleteFrom('group_row').where('did', '=', groupDid).execute()
    })
    this.progress.forget(accountDid, groupDid)
  }

  async refresh(accountDid: string, groupDid: string): Promise<GroupSummary> {
    const rt = await this.runtime(accountDid)
    return this.progress.track(accountDid, groupDid, (report) => this.refreshGroup(rt, groupDid, report))
  }

  /** Where the sync under way (or the last one) stands, group by group. */
  syncStatus(): SyncStatus {
    return this.progress.status()
  }

  /** A page of join requests, oldest first, searched in the core. */
  async joinRequests(accountDid: string, groupDid: string, query: ListQuery): Promise<JoinRequestPage> {
    const cache = await this.cacheOf(accountDid, groupDid)
    const { items, total, revision } = await this.lists.matching(cache, accountDid, groupDid, joinRequestList, query.q)
    const open = items.reduce((n, r) => (r.pending ? n : n + 1), 0)
    return { items: items.slice(query.offset, query.offset + query.limit), offset: query.offset, total, matched: items.length, open, revision }
  }
  /** The DIDs of every open request matching a search: what "select all" selects. */
  async openJoinRequests(accountDid: string, groupDid: string, q?: string): Promise<OpenJoinRequests> {
    const { items, revision } = await this.lists.matching(await this.cacheOf(accountDid, groupDid), accountDid, groupDid, joinRequestList, q)
    return { dids: items.filter((r) => !r.pending).map((r) => r.did), revision }
  }
  /** A page of members, sorted and searched in the core so only the rows in view cross. */
  async members(accountDid: string, groupDid: string, query: ListQuery): Promise<ListPage<MemberItem>> {
    const rt = await this.runtime(accountDid)
    const summary = await cachedSummary(rt, groupDid)
    if (!summary) throw new UserFacingError('GroupNotAdded', 'That group is not in this account’s list.')
    return this.lists.page(rt.cache, accountDid, groupDid, memberList(summary.allRoles), query)
  }
  /** A page of outstanding invites, newest first, searched in the core. */
  async invites(accountDid: string, groupDid: string, query: ListQuery): Promise<ListPage<InviteItem>> {
    return this.lists.page(await this.cacheOf(accountDid, groupDid), accountDid, groupDid, inviteList, query)
  }
  /** A page of the moderation queue (or of one status in it), with how many are open and escalated. */
  async subjects(accountDid: string, groupDid: string, query: ListQuery & { status: SubjectFilter }): Promise<SubjectPage> {
    const cache = await this.cacheOf(accountDid, groupDid)
    const { items, revision } = await this.lists.matching(cache, accountDid, groupDid, subjectList, query.q)
    const queue = items.filter((s) => inView(s, 'queue'))
    const shown = query.status === 'queue' ? queue : items.filter((s) => inView(s, query.status))
    let open = 0
    let escalated = 0
    for (const s of queue) {
      if (s.status === 'open') open++
      else if (s.status === 'escalated') escalated++
    }
    return { items: shown.slice(query.offset, query.offset + query.limit), offset: query.offset, total: queue.length, matched: shown.length, open, escalated, revision }
  }
  async spaces(accountDid: string, groupDid: string): Promise<SpaceItem[]> {
    return readItems(await this.cacheOf(accountDid, groupDid), groupDid, 'space')
  }

  async events(accountDid: string, groupDid: string): Promise<EventItem[]> {
    const events = await readItems<EventItem>(await this.cacheOf(accountDid, groupDid), groupDid, 'event')
    return events.sort((a, b) => a.startsAt.localeCompare(b.startsAt))
  }

  /**
   * Starts a new group on a host (the host mints its DID) with this account as owner,
   * and adds it to the account's list.
   */
  async createGroup(accountDid: string, input: { handle: string; displayName?: string; joinPolicy: string; hostUrl?: string }): Promise<GroupSummary> {
    const hostUrl = input.hostUrl ?? this.opts.defaultHostUrl
    if (!hostUrl) throw new UserFacingError('HostRequired', 'Choose the group host that will run the new group.')
    const rt = await this.runtime(accountDid)
    const host = rt.host(await hostAddress(hostUrl, this.opts.idResolver))
    const { did } = await host.procedure('example.groups.createGroup', {
      handle: input.handle.toLowerCase(),
      joinPolicy: input.joinPolicy,
      ...(input.displayName ? { displayName: input.displayName } : {}),
    })
    return this.addGroup(accountDid, did)
  }

  /**
   * Queues an organizer action with its cached effect, then tries to send the queue.
   * Returns at once: the result shows in the outbox and, once sent, in the lists.
   */
  async act(accountDid: string, groupDid: string, action: RequestedAction): Promise<number> {
    const [id] = await this.actMany(accountDid, groupDid, [action])
    return id!
  }

  /** Queues several actions in one transaction (all or none), then sends the queue once. */
  async actMany(accountDid: string, groupDid: string, actions: RequestedAction[]): Promise<number[]> {
    const rt = await this.runtime(accountDid)
    await this.cacheOf(accountDid, groupDid)
    for (const action of actions) {
      // The space index is checked first, so the same kind of space is not made twice.
      if (action.kind === 'space.create') {
        const existing = (await this.spaces(accountDid, groupDid)).find((sp) => sp.type === action.type && sp.skey === action.skey)
        if (existing) throw new UserFacingError('SpaceExists', `This group already has that space: “${existing.name}”.`)
      }
    }
    const ids = await rt.outbox.enqueueMany(
      actions.map((action) => {
        const { kind, payload } = queuedAction(action)
        return prepareAction(groupDid, kind, payload)
      }),
    )
    this.lists.warm(rt.cache, accountDid, groupDid)
    const sending = this.sendAndRefresh(rt, groupDid).finally(() => this.inFlight.delete(sending))
    this.inFlight.add(sending)
    return ids
  }

  /** Sends an account's queue, then refreshes the groups it touched. */
  async sendAndRefresh(rt: AccountRuntime, groupDid?: string): Promise<void> {
    await rt.outbox.replay().catch((err: unknown) => log.error('outbox', 'replay failed', errorFields(err, { stack: true })))
    if (groupDid) await this.refreshGroup(rt, groupDid).catch((err: unknown) => log.error('sync', 'refresh failed', { groupDid, ...errorFields(err) }))
    this.opts.onChange?.()
  }

  async outbox(): Promise<OutboxItem[]> {
    const out: OutboxItem[] = []
    for (const account of await this.opts.accounts.store.list()) {
      const rt = await this.runtime(account.did)
      for (const row of await rt.outbox.list()) {
        out.push({ id: row.id, accountDid: account.did, groupDid: row.groupDid, kind: row.kind, label: row.label, state: row.state, attempts: row.attempts, detail: row.lastError, target: actionTarget(row.payload), createdAt: row.createdAt })
      }
    }
    return out
  }

  /**
   * One background pass: send every queue, then refresh each group whose change log
   * moved (or that was never synced). Failures leave the cache as it was.
   */
  async syncAll(): Promise<void> {
    const accounts = await this.opts.accounts.store.list()
    const plan: { rt: AccountRuntime; rows: { did: string; syncedAt: string | null }[] }[] = []
    for (const account of accounts) {
      const rt = await this.runtime(account.did)
      plan.push({ rt, rows: await rt.cache.selectFrom('group_row').select(['did', 'syncedAt']).execute() })
    }
    this.progress.plan(plan.flatMap(({ rt, rows }) => rows.map((r) => ({ accountDid: rt.did, groupDid: r.did }))))
    for (const { rt, rows } of plan) {
      await rt.outbox.replay().catch(() => {})
      for (const row of rows) {
        await this.progress
          .track(rt.did, row.did, async (report) => {
            if (row.syncedAt && !(await hasChanges(rt, row.did))) return report.unchanged()
            await this.refreshGroup(rt, row.did, report)
          })
          .catch((err: unknown) => log.error('sync', 'group sync failed', { groupDid: row.did, ...errorFields(err) }))
      }
    }
    this.opts.onChange?.()
  }

  /** A group's lists from its host; the lists someone looked at lately are sorted again ahead. */
  private async refreshGroup(rt: AccountRuntime, groupDid: string, report?: Parameters<typeof refreshGroup>[2]): Promise<GroupSummary> {
    const summary = await refreshGroup(rt, groupDid, report)
    this.lists.warm(rt.cache, rt.did, groupDid)
    this.fillHandlesLater(rt, groupDid)
    return summary
  }

  /** Handle lookups, one group at a time, after the sync that brought their rows. */
  private handleWork: Promise<void> = Promise.resolve()
  /**
   * Puts handles on the join requests and invites the host names by DID only, in the
   * background (the sync has already shown the rows), then sorts those lists again.
   */
  private fillHandlesLater(rt: AccountRuntime, groupDid: string) {
    const lookUp = (did: string) => (this.closed ? Promise.reject(new Error('closing')) : verifiedHandle(did, this.opts))
    const job = this.handleWork
      .then(async () => {
        // A big group fills in over several passes, each shown as it lands; the rest
        // waits for the next sync, so one refresh never floods the directory.
        for (let pass = 0; pass < HANDLE_PASSES_PER_SYNC && !this.closed; pass++) {
          const { due, changed } = await fillListHandles(rt.cache, groupDid, lookUp)
          if (changed) {
            this.lists.warm(rt.cache, rt.did, groupDid)
            this.opts.onChange?.()
          }
          if (due < PER_PASS) break
        }
      })
      .catch((err: unknown) => log.warn('handles', 'handle check failed', { groupDid, ...errorFields(err) }))
    this.handleWork = job
    this.inFlight.add(job)
    void job.finally(() => this.inFlight.delete(job))
  }

  private async cacheOf(accountDid: string, groupDid: string) {
    const rt = await this.runtime(accountDid)
    const exists = await rt.cache.selectFrom('group_row').select('did').where('did', '=', groupDid).executeTakeFirst()
    if (!exists) throw new UserFacingError('GroupNotAdded', 'That group is not in this account’s list.')
    return rt.cache
  }

  async close(): Promise<void> {
    this.closed = true
    await Promise.allSettled([...this.inFlight])
    for (const rt of this.runtimes.values()) await (await rt).close()
  }
}
