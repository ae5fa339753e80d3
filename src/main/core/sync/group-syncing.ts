import type { IdResolver } from '@atproto/identity'
import type { GroupSummary, LiveConnectionState, SyncStatus } from '../../../shared/ipc/views.js'
import type { NoticeHub } from '../ipc/notices.js'
import type { AccountRuntime } from '../session/account-runtime.js'
import type { AccountRuntimes } from '../groups/account-runtimes.js'
import { refreshGroup } from './refresh-group.js'
import { identifiersOf, listOf, ownFromAnswers, planCatchUp, readChanges, settleOwn, type Change, type SentAction } from './catch-up.js'
import { writeAnswer } from '../actions/action-spec.js'
import { isActionKind } from '../actions/registry.js'
import type { SettledAction } from '../outbox/outbox.js'
import { resolveGroup, type ResolvedGroup } from '../groups/resolve-group.js'
import type { ListPages } from '../reading/list-pages.js'
import { fillListHandles, PER_PASS, RECHECK_MS, rememberHandle } from '../people/list-handles.js'
import { verifiedHandle } from '../people/resolve-person.js'
import { fillListProfiles, PROFILES_PER_PASS } from '../people/profile-cache.js'
import type { Profile } from '../people/profile-reader.js'
import { SyncProgress, type SyncReporter } from './sync-progress.js'
import { errorFields, log } from '../log/log.js'

/** Handle lookups after one sync, at most (× PER_PASS people). */
const HANDLE_PASSES_PER_SYNC = 10

/**
 * Keeping the cache up to date with the hosts: which groups an account follows, the
 * background pass over all of them, and a group's catch-up from its change log (after
 * a pass finds news, or after one of our own actions went out).
 */
export class GroupSyncing {
  private readonly progress: SyncProgress
  /** One catch-up of a group at a time: an action's and a background pass's never interleave. */
  private readonly groupWork = new Map<string, Promise<unknown>>()
  /** The newest change-log entry taken in per account and group (entries' `seq` rise within a group). */
  private readonly lastSeq = new Map<string, number>()
  /**
   * Our actions settled from the writes' answers, per account and group, with what
   * identifies them, until the log's entries for them are read: then those are known
   * as ours, and only lend what the answer lacked (an admitted member's joining time).
   */
  private readonly answeredAhead = new Map<string, { action: SentAction; ids: string[] }[]>()
  /** Handle lookups, one group at a time, after the sync that brought their rows. */
  private handleWork: Promise<void> = Promise.resolve()
  private readonly inFlight = new Set<Promise<void>>()
  private closed = false

  constructor(
    private readonly runtimes: AccountRuntimes,
    private readonly lists: ListPages,
    private readonly opts: {
      idResolver: IdResolver
      resolveHandle: (handle: string) => Promise<string | null>
      /** The guarded fetch for group hosts named in DID documents (node/safe-fetch.ts, createPeerFetch). */
      hostFetch: typeof globalThis.fetch
      notices?: NoticeHub
      /** Reads a person's profile from their PDS (people/profile-reader.ts); without it no profiles are read. */
      readProfile?: (did: string) => Promise<Profile>
    },
  ) {
    this.progress = new SyncProgress(() => this.announce())
  }

  /** The live connections' states, shown with the sync's progress (live/live-changes.ts sets it). */
  liveStates: () => LiveConnectionState[] = () => []
  /** Set by the group service: a group's host answered an action (live/ reconnects a dropped stream now). */
  hostAnswered: (accountDid: string, groupDid: string) => void = () => {}

  /** Tells the window where syncing and the live connections stand. */
  announce(): void {
    this.opts.notices?.emit('sync.progress', this.status())
  }

  private groupChanged(accountDid: string, groupDid: string) {
    this.opts.notices?.emit('group.changed', { accountDid, groupDid })
  }

  /** Adds a group by handle or DID to an account's list, resolving its host, and reads it whole. */
  async addGroup(accountDid: string, ref: string): Promise<GroupSummary> {
    return this.addResolved(accountDid, await resolveGroup(ref, { idResolver: this.opts.idResolver, resolveHandle: this.opts.resolveHandle, hostFetch: this.opts.hostFetch }))
  }

  /** Adds a group already resolved to its host (and its handle checked both ways). */
  async addResolved(accountDid: string, group: ResolvedGroup): Promise<GroupSummary> {
    const rt = await this.runtimes.get(accountDid)
    await rt.cache
      .insertInto('group_row')
      .values({ did: group.did, view: JSON.stringify({ did: group.did, handle: group.handle, joinPolicy: 'unknown', roles: [] }), hostUrl: group.host.url, hostAud: group.host.aud, changeCursor: null, syncedAt: null })
      .onConflict((oc) => oc.column('did').doUpdateSet({ hostUrl: group.host.url, hostAud: group.host.aud }))
      .execute()
    // The handle just checked both ways is the one shown; a host's getGroup only claims one.
    await rememberHandle(rt.cache, group.did, group.handle)
    this.opts.notices?.emit('groups.changed', {})
    return this.progress.track(accountDid, group.did, (report) => this.oneAtATime(rt, group.did, () => this.refreshGroup(rt, group.did, report)))
  }

  async removeGroup(accountDid: string, groupDid: string): Promise<void> {
    const rt = await this.runtimes.get(accountDid)
    await rt.cache.transaction().execute(async (tx) => {
      await tx.deleteFrom('item').where('groupDid', '=', groupDid).execute()
      await tx.deleteFrom('group_row').where('did', '=', groupDid).execute()
    })
    this.progress.forget(accountDid, groupDid)
    rt.outbox.takeSettled(groupDid) // nothing left to confirm for a group no longer followed
    this.opts.notices?.emit('groups.changed', {})
  }

  /** Reads a group whole from its host (the person asked to). */
  async refresh(accountDid: string, groupDid: string): Promise<GroupSummary> {
    const rt = await this.runtimes.get(accountDid)
    // In the group's turn: an action answered meanwhile is settled after this read is written, never under it.
    return this.progress.track(accountDid, groupDid, (report) => this.oneAtATime(rt, groupDid, () => this.refreshGroup(rt, groupDid, report)))
  }

  /** Where the sync under way (or the last one) stands, group by group. */
  status(): SyncStatus {
    return { ...this.progress.status(), live: this.liveStates() }
  }

  /**
   * One background pass: send every queue, then catch each group up from its change
   * log. Failures leave the cache as it was. `skip` leaves out groups something else
   * keeps up to date (a live change stream, live/): their queues are still sent.
   * `now` (the person asked): actions waiting out a back-off are tried now too.
   */
  async syncAll(opts: { skip?: (accountDid: string, groupDid: string) => boolean; caughtUp?: (accountDid: string, groupDid: string) => void; now?: boolean } = {}): Promise<void> {
    const plan: { rt: AccountRuntime; rows: { did: string }[] }[] = []
    for (const rt of await this.runtimes.all()) {
      const rows = await rt.cache.selectFrom('group_row').select('did').execute()
      plan.push({ rt, rows: rows.filter((r) => !opts.skip?.(rt.did, r.did)) })
    }
    this.progress.plan(plan.flatMap(({ rt, rows }) => rows.map((r) => ({ accountDid: rt.did, groupDid: r.did }))))
    for (const { rt, rows } of plan) {
      if (opts.now) await rt.outbox.endBackOffs().catch(() => {})
      // Every group's queue goes at once; each group's catch-up waits for its own only.
      const sending = rt.outbox.replay().catch(() => {})
      for (const row of rows) {
        await rt.outbox.replay(row.did).catch(() => {})
        await this.progress
          .track(rt.did, row.did, (report) => this.catchUp(rt, row.did, report))
          .then(() => opts.caughtUp?.(rt.did, row.did))
          .catch((err: unknown) => log.error('sync', 'group sync failed', { groupDid: row.did, ...errorFields(err) }))
      }
      await sending
    }
  }

  /**
   * Brings one group up to date from its change log: one request when nothing moved;
   * our own sent actions applied from what was sent; others' changes by reading again
   * only the lists they name; the whole group only when it was never read or the host
   * lost our cursor.
   */
  catchUp(rt: AccountRuntime, groupDid: string, report?: SyncReporter): Promise<void> {
    return this.oneAtATime(rt, groupDid, () => this.catchUpNow(rt, groupDid, report))
  }

  /**
   * After our own actions went out: when every write answered its place in the change
   * log, the answers settle them, with no request; otherwise (an older host, a write to
   * the person's own server, a refusal) the group catches up from its log.
   */
  afterSending(rt: AccountRuntime, groupDid: string): Promise<void> {
    // The host answered, so a sync that failed while it was away is done again now, under
    // watch: the window stops saying the group could not be synced as soon as it is back.
    // Judged when this group's turn comes, not now: a sync still under way may yet fail
    // (it asked while the host was coming back, and the answer to this action came first).
    const answered = rt.outbox.hostAnswered(groupDid)
    if (answered) this.hostAnswered(rt.did, groupDid)
    return this.oneAtATime(rt, groupDid, () =>
      answered && this.progress.failed(rt.did, groupDid)
        ? this.progress.track(rt.did, groupDid, (report) => this.catchUpNow(rt, groupDid, report))
        : this.settleFromAnswers(rt, groupDid),
    )
  }

  private async settleFromAnswers(rt: AccountRuntime, groupDid: string): Promise<void> {
    const row = await rt.cache.selectFrom('group_row').select('syncedAt').where('did', '=', groupDid).executeTakeFirst()
    const settled = rt.outbox.takeSettled(groupDid)
    const sent = sentOf(settled)
    const own = row?.syncedAt && sent.length && sent.length === settled.length ? ownFromAnswers(sent, groupDid, new Date().toISOString()) : null
    if (!own) return this.catchUpNow(rt, groupDid, undefined, undefined, settled)
    const key = `${rt.did} ${groupDid}`
    const ahead = await Promise.all(sent.map(async (action) => ({ action, ids: await identifiersOf(rt, groupDid, action) })))
    await rt.cache.transaction().execute((tx) => settleOwn(tx, groupDid, sent, own))
    this.answeredAhead.set(key, [...(this.answeredAhead.get(key) ?? []), ...ahead])
    this.fillHandlesLater(rt, groupDid)
    this.groupChanged(rt.did, groupDid)
  }

  /**
   * Applies changes the host pushed (the live change stream, live/) exactly as a
   * catch-up applies those it reads, without asking for them: the change is the
   * change-log entry. `cursor` is where the log stands after them.
   */
  applyPushed(rt: AccountRuntime, groupDid: string, changes: Change[], cursor: string): Promise<void> {
    return this.oneAtATime(rt, groupDid, () => this.catchUpNow(rt, groupDid, undefined, { changes, cursor }))
  }

  /** Runs a group's catch-ups one after another: an action's, a pass's and a pushed change's never interleave. */
  private oneAtATime<T>(rt: AccountRuntime, groupDid: string, work: () => Promise<T>): Promise<T> {
    const key = `${rt.did} ${groupDid}`
    const run = (this.groupWork.get(key) ?? Promise.resolve()).catch(() => {}).then(work)
    this.groupWork.set(key, run)
    void run
      .finally(() => {
        if (this.groupWork.get(key) === run) this.groupWork.delete(key)
      })
      .catch(() => {})
    return run
  }

  private async catchUpNow(rt: AccountRuntime, groupDid: string, report?: SyncReporter, pushed?: { changes: Change[]; cursor: string }, taken?: SettledAction[]): Promise<void> {
    const key = `${rt.did} ${groupDid}`
    const row = await rt.cache.selectFrom('group_row').select(['changeCursor', 'syncedAt']).where('did', '=', groupDid).executeTakeFirst()
    if (!row) return
    // A pushed change a catch-up already took in (a pass ran before the stream resumed
    // from its older cursor) is not applied twice, and the cursor never moves back.
    const seen = this.lastSeq.get(key) ?? 0
    const fresh = pushed?.changes.filter((c) => c.seq > seen)
    if (pushed && row.syncedAt && !fresh!.length && !rt.outbox.hasSettled(groupDid)) return
    const settled = taken ?? rt.outbox.takeSettled(groupDid)
    const sentNow = sentOf(settled)
    // A refused action's cached effect was wrong: its list is read again.
    const refused = new Set(settled.flatMap((a) => (a.state !== 'done' && isActionKind(a.kind) ? (listOf(a.kind) ?? []) : [])))
    const ahead = this.answeredAhead.get(key) ?? []
    this.answeredAhead.delete(key)
    const sent = [...ahead.map((a) => a.action), ...sentNow]
    const got = !row.syncedAt
      ? null
      : pushed
        ? { changes: fresh!, cursor: fresh!.length || !row.changeCursor ? pushed.cursor : row.changeCursor }
        : row.changeCursor
          ? await readChanges(rt, groupDid, row.changeCursor)
          : null
    if (!got) {
      await this.refreshGroup(rt, groupDid, report)
      return
    }
    for (const c of got.changes) if (c.seq > (this.lastSeq.get(key) ?? 0)) this.lastSeq.set(key, c.seq)
    const ids = new Map<number, string[]>(ahead.map((a) => [a.action.id, a.ids]))
    for (const a of sentNow) ids.set(a.id, await identifiersOf(rt, groupDid, a))
    // Answered ahead of the log and not yet met in it: kept for the next catch-up.
    const notYet = ahead.filter((a) => a.action.answer.seq! > (this.lastSeq.get(key) ?? 0))
    if (notYet.length) this.answeredAhead.set(key, notYet)
    const plan = planCatchUp(got.changes, sent, ids, rt.did, got.cursor)
    let read = plan.read
    if (read === null && refused.size) read = { lists: refused, group: false, cursor: got.cursor }
    else if (read && read !== 'everything') read = { ...read, lists: new Set([...read.lists, ...refused]) }
    const now = new Date().toISOString()
    await rt.cache.transaction().execute(async (tx) => {
      await settleOwn(tx, groupDid, sent, plan.own)
      // Nothing more to read: the cursor moves past our own changes here.
      if (read === null) await tx.updateTable('group_row').set({ changeCursor: got.cursor, syncedAt: now }).where('did', '=', groupDid).execute()
    })
    // Read whole, the cache holds whatever our answered actions made: nothing left to match.
    if (read === 'everything') this.answeredAhead.delete(key)
    if (read === 'everything') await this.refreshGroup(rt, groupDid, report)
    else if (read) await this.refreshGroup(rt, groupDid, report, read)
    else if (sent.length) {
      // Our own actions can bring people no sync has read (an invite sent by handle):
      // their handles and profiles are looked up now, not only at the next full read.
      this.fillHandlesLater(rt, groupDid)
      this.groupChanged(rt.did, groupDid)
    } else report?.unchanged()
  }

  /** A group's lists from its host; the lists someone looked at lately are sorted again ahead. */
  private async refreshGroup(rt: AccountRuntime, groupDid: string, report?: Parameters<typeof refreshGroup>[2], partial?: Parameters<typeof refreshGroup>[3]): Promise<GroupSummary> {
    const summary = await refreshGroup(rt, groupDid, report, partial)
    this.lists.warm(rt.cache, rt.did, groupDid)
    this.fillHandlesLater(rt, groupDid)
    this.groupChanged(rt.did, groupDid)
    return summary
  }

  /**
   * Puts handles on the people the host names by DID only (join requests, invites,
   * members, reported accounts), in the background (the sync has already shown the
   * rows), then sorts those lists again.
   */
  private fillHandlesLater(rt: AccountRuntime, groupDid: string) {
    const lookUp = (did: string) => (this.closed ? Promise.reject(new Error('closing')) : verifiedHandle(did, this.opts))
    const job = this.handleWork
      .then(async () => {
        if (await recheckGroupHandle(rt, groupDid, lookUp)) this.groupChanged(rt.did, groupDid)
        // A big group fills in over several passes, each shown as it lands; the rest
        // waits for the next sync, so one refresh never floods the directory.
        for (let pass = 0; pass < HANDLE_PASSES_PER_SYNC && !this.closed; pass++) {
          const { due, changed } = await fillListHandles(rt.cache, groupDid, lookUp)
          if (changed) {
            this.lists.warm(rt.cache, rt.did, groupDid)
            this.groupChanged(rt.did, groupDid)
          }
          if (due < PER_PASS) break
        }
        await this.fillProfiles(rt, groupDid)
      })
      .catch((err: unknown) => log.warn('handles', 'handle check failed', { groupDid, ...errorFields(err) }))
    this.handleWork = job
    this.inFlight.add(job)
    void job.finally(() => this.inFlight.delete(job))
  }

  /**
   * Names and faces: the profiles of the same people, read from their own PDSes when
   * not read lately (people/profile-cache.ts); a read that fails keeps the old profile.
   */
  private async fillProfiles(rt: AccountRuntime, groupDid: string) {
    const readProfile = this.opts.readProfile
    if (!readProfile) return
    const read = (did: string) => (this.closed ? Promise.reject(new Error('closing')) : readProfile(did))
    for (let pass = 0; pass < HANDLE_PASSES_PER_SYNC && !this.closed; pass++) {
      const { due, changed } = await fillListProfiles(rt.cache, groupDid, read)
      if (changed) {
        this.lists.warm(rt.cache, rt.did, groupDid)
        this.groupChanged(rt.did, groupDid)
      }
      if (due < PROFILES_PER_PASS) break
    }
  }

  /** Resolves once the background work under way (handle lookups after a sync) has finished. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.inFlight])
  }

  /** Lets handle lookups under way end before the caches close. */
  async close(): Promise<void> {
    this.closed = true
    await this.idle()
  }
}

/**
 * The group's own handle, checked both ways again once a day (handles move, rarely), or
 * for the first time when the group was added before handles were checked. Says whether
 * the shown handle changed.
 */
async function recheckGroupHandle(rt: AccountRuntime, groupDid: string, lookUp: (did: string) => Promise<string | null>): Promise<boolean> {
  const row = await rt.cache.selectFrom('person').select(['handle', 'checkedAt']).where('did', '=', groupDid).executeTakeFirst()
  if (row && Date.parse(row.checkedAt) > Date.now() - RECHECK_MS) return false
  const handle = await lookUp(groupDid).catch(() => undefined)
  if (handle === undefined) return false
  await rememberHandle(rt.cache, groupDid, handle)
  return (row?.handle ?? null) !== handle
}

/** The actions the host took, as the catch-up matches them (a kind this version does not know is left out). */
function sentOf(settled: SettledAction[]): SentAction[] {
  return settled.flatMap((a) => (a.state === 'done' && isActionKind(a.kind) ? [{ id: a.id, kind: a.kind, payload: a.payload, answer: writeAnswer(a.answer) }] : []))
}
