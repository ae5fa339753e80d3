/**
 * The rows of a long list that lives in the core, fetched a page at a time as the
 * window scrolls to them (plain TypeScript: the Vue wrapper is use-paged-list.ts).
 *
 * Pages carry the revision of the cached list they were cut from. A page of a newer
 * revision drops every older page (they may be shifted by an insert), and the pages in
 * view are asked for again, so rows of two versions of the list never sit side by side.
 */
export interface Page<T> {
  items: T[]
  offset: number
  total: number
  matched: number
  revision: number
}
export type LoadPage<T> = (offset: number, limit: number) => Promise<Page<T>>

export interface PagedSnapshot<T> {
  pages: Map<number, T[]>
  revision: number
  total: number
  matched: number
  info: Record<string, unknown>
}

export class PagedRows<T> {
  private pages = new Map<number, T[]>()
  private readonly inFlight = new Set<number>()
  /** Pages asked to be read again while on their way: read once more when they land. */
  private readonly readAgain = new Set<number>()
  private revision = -1
  /** Set by reset(): the next page replaces what is shown (kept until then, so nothing flickers). */
  private replacing = false
  private generation = 0
  private want = { start: 0, end: 1 }
  total = 0
  matched = 0
  /** The rest of what the last page said about the whole list (e.g. open join requests). */
  info: Record<string, unknown> = {}
  loaded = false
  error: string | null = null

  constructor(
    private load: LoadPage<T>,
    private readonly pageSize: number,
    private readonly onChange: () => void,
  ) {}

  rowAt(index: number): T | undefined {
    return this.pages.get(Math.floor(index / this.pageSize))?.[index % this.pageSize]
  }

  /**
   * The rows the window shows now: loads the pages they fall in that are not here yet,
   * and the pages either side once those are here, so scrolling finds its rows waiting.
   */
  show(start: number, end: number) {
    this.want = { start, end: Math.max(end, start + 1) }
    const needed = this.pagesIn(this.want).filter((index) => !this.pages.has(index))
    for (const index of needed) if (!this.inFlight.has(index)) void this.fetch(index)
    if (needed.length || !this.loaded) return
    const first = Math.floor(this.want.start / this.pageSize)
    const last = Math.floor((this.want.end - 1) / this.pageSize)
    const lastPage = Math.max(0, Math.ceil(this.matched / this.pageSize) - 1)
    for (const index of [last + 1, first - 1]) {
      if (index >= 0 && index <= lastPage && !this.pages.has(index) && !this.inFlight.has(index)) void this.fetch(index)
    }
  }

  /** The cached list may have changed: the pages in view are read again (cheap when it did not). */
  refresh() {
    for (const index of this.pagesIn(this.want)) {
      if (this.inFlight.has(index)) this.readAgain.add(index)
      else void this.fetch(index)
    }
  }

  /** Another list (another group, another search): starts over from its first page. */
  reset(load: LoadPage<T>) {
    this.load = load
    this.generation++
    this.inFlight.clear()
    this.readAgain.clear()
    this.replacing = true
    this.want = { start: 0, end: 1 }
    void this.fetch(0)
  }

  snapshot(): PagedSnapshot<T> | null {
    return this.loaded && !this.error ? { pages: new Map(this.pages), revision: this.revision, total: this.total, matched: this.matched, info: this.info } : null
  }

  /** Shows a list as it was when last seen (checked again by a refresh right after). */
  restore(s: PagedSnapshot<T>) {
    this.pages = new Map(s.pages)
    this.revision = s.revision
    this.total = s.total
    this.matched = s.matched
    this.info = s.info
    this.loaded = true
    this.replacing = false
    this.onChange()
  }

  private pagesIn(range: { start: number; end: number }): number[] {
    const last = Math.floor((Math.max(range.end, range.start + 1) - 1) / this.pageSize)
    const out: number[] = []
    for (let i = Math.floor(range.start / this.pageSize); i <= last; i++) out.push(i)
    return out
  }

  private async fetch(index: number) {
    const generation = this.generation
    this.inFlight.add(index)
    let again = false
    try {
      const page = await this.load(index * this.pageSize, this.pageSize)
      if (generation !== this.generation) return
      if (page.revision < this.revision && !this.replacing) {
        // Cut before a page we already hold: ask again rather than mix versions.
        again = true
        return
      }
      if (this.replacing || page.revision > this.revision) {
        this.pages = new Map()
        this.replacing = false
        this.revision = page.revision
      } else {
        this.pages = new Map(this.pages)
      }
      const { items, offset: _offset, total, matched, revision: _revision, ...info } = page
      this.pages.set(index, items)
      this.total = total
      this.matched = matched
      this.info = info
      this.error = null
      this.loaded = true
      this.onChange()
    } catch (err) {
      if (generation !== this.generation) return
      this.error = (err as Error).message
      this.loaded = true
      this.onChange()
    } finally {
      if (generation === this.generation) {
        this.inFlight.delete(index)
        again = this.readAgain.delete(index) || again
        // Pages in view that a newer revision dropped (or that came back stale) are asked for again.
        if (!this.error) {
          if (again) void this.fetch(index)
          else this.show(this.want.start, Math.min(this.want.end, Math.max(this.matched, 1)))
        }
      }
    }
  }
}
