import type { Logger } from 'pino'
import type { HostDb } from '../db/index.js'
import type { ChangeTable } from '../db/schema.js'
import { settledEnd } from './log-horizon.js'
import { WakeList } from './wake-list.js'

/** Entries read from the log per query. */
const PAGE = 1_000

/**
 * This process's view of the change log's end, for every stream it serves: one reader
 * per process, however many subscribers. Woken when the log grows (./log-signals.ts), it
 * reads the new entries up to the settled end (./log-horizon.ts) once, keeps the latest
 * `window` of them in memory for subscribers that are keeping up, and tells the waiting
 * ones. A subscriber further behind reads the log itself, a page at a time
 * (./subscription.ts); nothing here grows with how far behind anyone is.
 */
export class ChangeFeed {
  /** Every entry with `windowStart < seq <= head`, oldest first. */
  private recent: ChangeTable[] = []
  private windowStart: number
  private head: number
  private reading: Promise<void> | null = null
  private readAgain = false
  /** Reads asked for, and the last ask the reads have caught up with (for {@link refresh}). */
  private asked = 0
  private answered = 0
  private readonly waiters = new WakeList()
  private retry: NodeJS.Timeout | undefined
  private closed = false
  /** Woken while nobody was streaming: not read; the next read starts from the end instead. */
  private idle = false

  private constructor(
    private readonly db: HostDb,
    private readonly window: number,
    private readonly logger: Logger,
    /** Whether any stream is open: with none, the log is not read at all. */
    private readonly inUse: () => boolean,
    end: number,
  ) {
    this.windowStart = end
    this.head = end
  }

  /** Starts at the log's current settled end: subscribers without a cursor start there. */
  static async open(db: HostDb, opts: { window: number; logger: Logger; inUse: () => boolean }): Promise<ChangeFeed> {
    return new ChangeFeed(db, Math.max(1, opts.window), opts.logger, opts.inUse, await settledEnd(db))
  }

  /** The settled end of the log as this process last read it; call {@link refresh} first when {@link stale}. */
  get end(): number {
    return this.head
  }

  /** Whether the log may have grown since it was last read (it is not read while no stream is open). */
  get stale(): boolean {
    return this.idle
  }

  /** The log grew (or may have): read it. Reads never overlap; a wake during one reads again after. */
  wake(): void {
    if (this.closed) return
    if (!this.inUse()) {
      this.idle = true
      return
    }
    this.asked++
    if (this.reading) {
      this.readAgain = true
      return
    }
    this.reading = this.catchUp().finally(() => {
      this.reading = null
      if (this.readAgain) {
        this.readAgain = false
        this.asked--
        this.wake()
      }
    })
  }

  /** Resolves once a read that began after this call has finished: the end is then at least the log's settled end now. */
  async refresh(): Promise<void> {
    this.wake()
    const target = this.asked
    while (this.answered < target && !this.closed) await this.waiters.next()
  }

  /** Up to `max` entries after `pos`, or `behind` when `pos` is older than what is kept in memory. */
  after(pos: number, max: number): ChangeTable[] | 'behind' {
    if (pos < this.windowStart) return 'behind'
    let lo = 0
    let hi = this.recent.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.recent[mid]!.seq <= pos) lo = mid + 1
      else hi = mid
    }
    return this.recent.slice(lo, lo + max)
  }

  /** Resolves once the end is past `pos`, or when `signal` aborts or the feed closes. */
  async until(pos: number, signal: AbortSignal): Promise<void> {
    while (this.head <= pos && !signal.aborted && !this.closed) await this.waiters.next(signal)
  }

  close(): void {
    this.closed = true
    clearTimeout(this.retry)
    this.notify()
  }

  private async catchUp(): Promise<void> {
    const upTo = this.asked
    try {
      const end = await settledEnd(this.db)
      if (this.idle) {
        // Nobody was streaming: what was written meanwhile is in the log for anyone resuming.
        this.idle = false
        this.recent = []
        this.windowStart = this.head = Math.max(this.head, end)
      }
      while (this.head < end && !this.closed) {
        const rows = await this.db.selectFrom('change').selectAll().where('seq', '>', this.head).where('seq', '<=', end).orderBy('seq').limit(PAGE).execute()
        for (const row of rows) this.recent.push({ ...row, seq: Number(row.seq) })
        this.head = rows.length < PAGE ? end : Number(rows[rows.length - 1]!.seq)
        this.trim()
        this.notify()
      }
      this.answered = Math.max(this.answered, upTo)
    } catch (err) {
      // A database that is busy or briefly gone: the entries stay in the log; read again soon.
      if (this.closed) return
      this.logger.warn({ err }, 'change stream: reading the change log failed; trying again in a second')
      clearTimeout(this.retry)
      this.retry = setTimeout(() => this.wake(), 1_000)
      this.retry.unref()
    }
    this.notify()
  }

  private trim(): void {
    const excess = this.recent.length - this.window
    if (excess <= 0) return
    this.windowStart = this.recent[excess - 1]!.seq
    this.recent.splice(0, excess)
  }

  private notify(): void {
    this.waiters.wakeAll()
  }
}
