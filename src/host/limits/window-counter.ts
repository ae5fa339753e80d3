/** Where a key's window stands after counting a call. */
export interface WindowCount {
  /** Calls counted in the current window, this one included. */
  count: number
  /** When the current window ends (ms since the epoch). */
  resetAt: number
}

/**
 * Fixed-window counters. Windows are aligned to the clock (floor(now / window)), so
 * several counters of one key agree on where a window starts: a store shared by several
 * host processes (decisions 6.10; e.g. one upsert per hit in PostgreSQL) can implement
 * this interface with the same results, hence promises.
 */
export interface CounterStore {
  /** Counts `points` calls for `key` now, and says where its window stands. */
  hit(key: string, points: number, windowMs: number): Promise<WindowCount>
  /** Where `key`'s window stands, counting nothing. */
  peek(key: string, windowMs: number): Promise<WindowCount>
  close(): void
}

/** Where the clock-aligned window holding `now` starts: every process agrees on it. */
export const windowOf = (now: number, windowMs: number) => Math.floor(now / windowMs) * windowMs

/**
 * Counters in memory. The host counts every request, and counting in SQLite would add a
 * synced write (about half a millisecond here, holding the one connection) to each, so
 * one host process keeps its counts in memory; they start again from zero on restart,
 * which at worst grants one extra window. Ended windows are swept once a minute, so the
 * map holds at most the keys seen within one window.
 */
export class MemoryCounterStore implements CounterStore {
  private readonly counts = new Map<string, { windowStart: number; windowMs: number; count: number }>()
  private readonly sweeper: NodeJS.Timeout

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), 60_000)
    this.sweeper.unref()
  }

  async hit(key: string, points: number, windowMs: number): Promise<WindowCount> {
    const windowStart = windowOf(this.now(), windowMs)
    const entry = this.counts.get(key)
    if (entry && entry.windowStart === windowStart) entry.count += points
    else this.counts.set(key, { windowStart, windowMs, count: points })
    return { count: this.counts.get(key)!.count, resetAt: windowStart + windowMs }
  }

  async peek(key: string, windowMs: number): Promise<WindowCount> {
    const windowStart = windowOf(this.now(), windowMs)
    const entry = this.counts.get(key)
    return { count: entry && entry.windowStart === windowStart ? entry.count : 0, resetAt: windowStart + windowMs }
  }

  private sweep() {
    const now = this.now()
    for (const [key, entry] of this.counts) if (entry.windowStart + entry.windowMs <= now) this.counts.delete(key)
  }

  close() {
    clearInterval(this.sweeper)
  }
}
