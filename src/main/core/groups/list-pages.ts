import type { CacheDb } from '../cache/cache-db.js'
import { readItems, type ItemKind } from '../cache/items.js'

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
  /** Returns the items in the order organizers read them (may sort in place). */
  sort: (items: T[]) => T[]
  /** Whether an item matches a search: `needle` is trimmed, lower-cased, without a leading @. */
  matches: (item: T, needle: string) => boolean
}

interface Sorted {
  revision: number
  orderKey: string
  items: unknown[]
}

/** Lists kept sorted in memory at once; a handful of groups covers what one window shows. */
const KEPT = 16

/**
 * A group's long lists a page at a time. A list of 10,000 is read and sorted once per
 * change of the cache (the trigger-kept `item_revision`, cache migration 002, says when,
 * whichever code path wrote), so each page the window asks for while scrolling costs
 * one tiny query and a slice, and only the rows in view cross to the renderer.
 */
export class ListPages {
  private readonly kept = new Map<string, Sorted>()

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
    const items = await readItems<T>(cache, groupDid, shape.kind)
    const fresh: Sorted = { revision, orderKey: shape.orderKey, items: shape.sort(items) }
    this.kept.delete(key)
    this.kept.set(key, fresh)
    while (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!)
    return fresh
  }

  forget(cacheKey: string) {
    for (const key of this.kept.keys()) if (key.startsWith(`${cacheKey} `)) this.kept.delete(key)
  }
}
