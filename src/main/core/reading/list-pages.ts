import type { CacheDb } from '../cache/cache-db.js'
import { readItems, readItemsByKey, type ItemKind } from '../cache/items.js'
import { CHANGES_KEPT } from '../cache/migrations/003-item-change.js'

export interface ListQuery {
  /** Matches in part, any case; a leading @ is ignored (see ListShape.matches). */
  q?: string
  offset: number
  limit: number
}

export interface ListPage<T> {
  items: T[]
  offset: number
  /** Items in the list, and how many of them match `q`. */
  total: number
  matched: number
  /** Moves whenever the cached list changes: pages of different revisions do not mix. */
  revision: number
}

/** How one kind of cached list is ordered and searched (see member-list.ts, join-request-list.ts). */
export interface ListShape<T> {
  kind: ItemKind
  /** Names what the order depends on besides the items (a group's roles), so a change re-sorts. */
  orderKey: string
  /** The order organizers read them in: a total order (ties broken by key). */
  compare: (a: T, b: T) => number
  /** The item's key in the cache's `item` table. */
  keyOf: (item: T) => string
  /** Whether an item matches a search: `needle` is trimmed, lower-cased, without a leading @. */
  matches: (item: T, needle: string) => boolean
}

interface Sorted {
  revision: number
  orderKey: string
  items: unknown[]
  /** How it was sorted, so it can be sorted again ahead of the next read (`warm`). */
  shape: ListShape<unknown>
}


/**
 * A group's long lists a page at a time. A list of 10,000 is read and sorted once per
 * change of the cache (the trigger-kept `item_revision`, cache migration 002, says when,
 * whichever code path wrote), so each page the window asks for while scrolling costs
 * one tiny query and a slice, and only the rows in view cross to the renderer.
 */
export class ListPages {
  /** Lists kept sorted in memory at once; a handful of groups covers what one window shows. */
  static readonly KEPT = 16
  private readonly kept = new Map<string, Sorted>()
  /** Sorts under way, by list and revision: readers arriving meanwhile wait for the same one. */
  private readonly building = new Map<string, Promise<Sorted>>()

  async page<T>(cache: CacheDb, cacheKey: string, groupDid: string, shape: ListShape<T>, query: ListQuery): Promise<ListPage<T>> {
    const { items, total, revision } = await this.matching(cache, cacheKey, groupDid, shape, query.q)
    return { items: items.slice(query.offset, query.offset + query.limit), offset: query.offset, total, matched: items.length, revision }
  }

  /** Every item matching a search, in order (for "select all matching"). */
  async matching<T>(cache: CacheDb, cacheKey: string, groupDid: string, shape: ListShape<T>, q?: string): Promise<{ items: T[]; total: number; revision: number }> {
    const sorted = await this.sorted(cache, cacheKey, groupDid, shape)
    const all = sorted.items as T[]
    const needle = (q ?? '').trim().toLowerCase().replace(/^@/, '')
    return { items: needle ? all.filter((item) => shape.matches(item, needle)) : all, total: all.length, revision: sorted.revision }
  }

  /** Sorts a list ahead of its first read (see GroupService.prepareListsOnce). */
  async prepare<T>(cache: CacheDb, cacheKey: string, groupDid: string, shape: ListShape<T>): Promise<void> {
    await this.sorted(cache, cacheKey, groupDid, shape)
  }

  /**
   * After the core wrote to a group's cache (a sync, a queued action), sorts again the
   * lists of that group someone has looked at lately, in the background, so the next
   * look finds them ready instead of paying for the sort on the way to its first screen.
   */
  warm(cache: CacheDb, cacheKey: string, groupDid: string): void {
    const prefix = `${cacheKey} ${groupDid} `
    for (const [key, kept] of this.kept) {
      if (!key.startsWith(prefix)) continue
      setImmediate(() => void this.sorted(cache, cacheKey, groupDid, kept.shape).catch(() => {}))
    }
  }

  private async sorted<T>(cache: CacheDb, cacheKey: string, groupDid: string, shape: ListShape<T>): Promise<Sorted> {
    const key = `${cacheKey} ${groupDid} ${shape.kind}`
    const row = await cache.selectFrom('item_revision').select('n').where('groupDid', '=', groupDid).where('kind', '=', shape.kind).executeTakeFirst()
    const revision = row?.n ?? 0
    const kept = this.kept.get(key)
    if (kept && kept.revision === revision && kept.orderKey === shape.orderKey) {
      // Most recently used last, so the oldest is the one let go.
      this.kept.delete(key)
      this.kept.set(key, kept)
      return kept
    }
    const buildKey = `${key} ${revision} ${shape.orderKey}`
    let build = this.building.get(buildKey)
    if (!build) {
      build = (async () => {
        const usable = kept && kept.orderKey === shape.orderKey && kept.revision < revision ? kept : undefined
        const items = (usable && (await patched(cache, groupDid, shape, usable, revision))) || (await readItems<T>(cache, groupDid, shape.kind)).sort(shape.compare)
        const fresh: Sorted = { revision, orderKey: shape.orderKey, items, shape: shape as ListShape<unknown> }
        // A slow build of an older revision must not replace a newer one that finished first.
        const now = this.kept.get(key)
        if (now && now.orderKey === fresh.orderKey && now.revision > fresh.revision) return fresh
        this.kept.delete(key)
        this.kept.set(key, fresh)
        while (this.kept.size > ListPages.KEPT) this.kept.delete(this.kept.keys().next().value!)
        return fresh
      })().finally(() => this.building.delete(buildKey))
      this.building.set(buildKey, build)
    }
    return build
  }

  forget(cacheKey: string) {
    for (const key of this.kept.keys()) if (key.startsWith(`${cacheKey} `)) this.kept.delete(key)
  }
}

/**
 * A kept copy brought up to `revision` by re-reading only the items the change log
 * (migration 003) says were touched since, or null when the log no longer reaches back
 * that far. After one action or a small sync that is a handful of rows, not 10,000.
 */
async function patched<T>(cache: CacheDb, groupDid: string, shape: ListShape<T>, kept: Sorted, revision: number): Promise<T[] | null> {
  const steps = revision - kept.revision
  if (steps > CHANGES_KEPT) return null
  const changes = await cache
    .selectFrom('item_change')
    .select('key')
    .where('groupDid', '=', groupDid)
    .where('kind', '=', shape.kind)
    .where('n', '>', kept.revision)
    .where('n', '<=', revision)
    .execute()
  if (changes.length !== steps) return null
  const touched = new Set(changes.map((c) => c.key))
  const items = (kept.items as T[]).filter((item) => !touched.has(shape.keyOf(item)))
  for (const item of await readItemsByKey<T>(cache, groupDid, shape.kind, [...touched])) {
    // Binary search for the first item after it, then insert there.
    let lo = 0
    let hi = items.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (shape.compare(items[mid]!, item) <= 0) lo = mid + 1
      else hi = mid
    }
    items.splice(lo, 0, item)
  }
  return items
}
