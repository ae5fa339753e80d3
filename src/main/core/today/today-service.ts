import type { TodayFilter, TodayItem, TodayPage } from '../../../shared/ipc/today-views.js'
import type { NoticeHub } from '../ipc/notices.js'
import { errorFields, log } from '../log/log.js'
import { withProfiles } from '../people/profile-cache.js'
import { countsOf, matchesFilter, oneEach, ordered } from './today-order.js'
import { todayCandidates, type TodaySource } from './today-items.js'

/** How quickly a change anywhere is counted again (the notices of a bulk decision come together). */
const RECOUNT_MS = 100
/** Events come into and leave the day as time passes: counted again each minute while someone listens. */
const CLOCK_MS = 60_000

interface Held {
  signature: string
  items: TodayItem[]
  counts: ReturnType<typeof countsOf>
}

/**
 * Today: what waits for the person across every group of every account, from the
 * caches only (no host is asked). The whole set is kept while nothing under it moved
 * (each cache's list revisions, outbox and groups, and the minute), so paging through
 * it, and counting it after each notice, costs a few small queries, not a re-read.
 * Only a page crosses to the window; the count goes out in `today.changed` notices and
 * to the shell (the dock badge, Electron only).
 */
export class TodayService {
  private held: Held | null = null
  /** Moves whenever the set changes (monotonic for the run: pages of two versions never mix). */
  private revision = 0
  private lastTold: { waiting: number; revision: number } | null = null
  private readonly listeners = new Set<(waiting: number) => void>()
  private timer: ReturnType<typeof setTimeout> | null = null
  private clock: ReturnType<typeof setInterval> | null = null
  private unsubscribe: (() => void) | null = null
  private closed = false

  constructor(
    private readonly sources: () => Promise<TodaySource[]>,
    private readonly notices?: NoticeHub,
    private readonly now: () => number = Date.now,
  ) {
    // Whatever moves a group's lists or the outbox may move Today: counted again after it.
    this.unsubscribe =
      notices?.subscribe((n) => {
        if (n.name !== 'today.changed' && n.name !== 'sync.progress') this.recountSoon()
      }) ?? null
  }

  /** Everything on Today, in no order, each item once. */
  private async all(): Promise<Held> {
    const sources = await this.sources()
    const now = this.now()
    const signature = JSON.stringify([Math.floor(now / CLOCK_MS), ...(await Promise.all(sources.map((s) => signatureOf(s))))])
    if (this.held?.signature === signature) return this.held
    const candidates = (await Promise.all(sources.map((s) => todayCandidates(s, now)))).flat()
    const items = oneEach(candidates)
    this.revision++
    this.held = { signature, items, counts: countsOf(items) }
    return this.held
  }

  /** A page of Today, filtered and ordered in the core; people are named from the profiles the caches keep. */
  async page(query: TodayFilter & { offset: number; limit: number }): Promise<TodayPage> {
    const held = await this.all()
    const shown = ordered(
      held.items.filter((i) => matchesFilter(i, query)),
      query.order,
    )
    const slice = shown.slice(query.offset, query.offset + query.limit)
    const items = await this.named(slice)
    return { items, offset: query.offset, total: held.items.length, matched: shown.length, revision: this.revision, ...held.counts }
  }

  /** How many items wait (not counting those with a decision on its way). */
  async waiting(): Promise<number> {
    return (await this.all()).counts.waiting
  }

  /** Told the count whenever it changes (the Electron shell's dock badge). */
  onWaiting(listener: (waiting: number) => void): () => void {
    this.listeners.add(listener)
    this.clock ??= setInterval(() => this.recountSoon(), CLOCK_MS)
    this.clock.unref?.()
    this.recountSoon()
    return () => void this.listeners.delete(listener)
  }

  close() {
    this.closed = true
    this.unsubscribe?.()
    if (this.timer) clearTimeout(this.timer)
    if (this.clock) clearInterval(this.clock)
  }

  private recountSoon() {
    if (this.timer || this.closed) return
    this.timer = setTimeout(() => {
      this.timer = null
      void this.recount().catch((err: unknown) => log.warn('today', 'could not count what waits', errorFields(err)))
    }, RECOUNT_MS)
    this.timer.unref?.()
  }

  private async recount() {
    if (this.closed) return
    const { counts } = await this.all()
    const now = { waiting: counts.waiting, revision: this.revision }
    if (this.lastTold && this.lastTold.waiting === now.waiting && this.lastTold.revision === now.revision) return
    const changedCount = this.lastTold?.waiting !== now.waiting
    this.lastTold = now
    this.notices?.emit('today.changed', now)
    if (!changedCount) return
    for (const listener of this.listeners) {
      try {
        listener(now.waiting)
      } catch (err) {
        log.warn('today', 'the count could not be shown', errorFields(err))
      }
    }
  }

  /** Display names from each account's kept profiles, for the page only. */
  private async named(items: TodayItem[]): Promise<TodayItem[]> {
    const sources = new Map((await this.sources()).map((s) => [s.did, s]))
    const out = [...items]
    const byAccount = new Map<string, number[]>()
    items.forEach((item, i) => item.person && byAccount.set(item.accountDid, [...(byAccount.get(item.accountDid) ?? []), i]))
    for (const [accountDid, at] of byAccount) {
      const src = sources.get(accountDid)
      if (!src) continue
      const seen = await withProfiles(src.cache, at.map((i) => items[i]!), (item) => item.person!.did)
      at.forEach((i, j) => {
        const item = items[i]!
        out[i] = { ...item, person: { ...item.person!, displayName: seen[j]!.displayName } }
      })
    }
    return out
  }
}

/** What Today read of one cache depends on: its lists' revisions (moved by every item write), its groups and its outbox's refused rows. */
async function signatureOf(src: TodaySource): Promise<string> {
  const [lists, groups, outbox] = await Promise.all([
    src.cache.selectFrom('item_revision').select(['groupDid', 'kind', 'n']).where('kind', 'in', ['joinRequest', 'subject', 'event']).execute(),
    src.cache.selectFrom('group_row').select(['did', 'syncedAt']).execute(),
    src.cache
      .selectFrom('outbox')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('updatedAt').as('at')])
      .where('state', 'in', ['failed', 'conflict'])
      .executeTakeFirst(),
  ])
  return JSON.stringify([src.did, lists, groups, outbox])
}
