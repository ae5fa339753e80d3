import type { Kysely } from 'kysely'
import { cborDecode } from '@atproto/lex-cbor'
import { InvalidRequestError } from '@atproto/xrpc-server'
import type { HostDatabaseSchema } from '../db/schema.js'
import { WakeList } from '../stream/wake-list.js'
import { takenDownRepos } from './takedown.js'

type Db = Kysely<HostDatabaseSchema>

/** How often the one reader looks for new commits while anyone streams: the log is shared by every host process. */
const POLL_MS = 250
/** Rows read per query, by the reader and by a stream catching up. */
const PAGE = 200
/** Commits kept in memory for the streams that are keeping up. */
const DEFAULT_WINDOW = 2_000
/** How long the set of repos an operator took down is taken as read. */
const TAKEDOWNS_MS = 1_000

export type RepoStreamMessage =
  | ({ $type: 'com.atproto.sync.subscribeRepos#commit'; seq: number } & Record<string, unknown>)
  | { $type: 'com.atproto.sync.subscribeRepos#info'; name: 'OutdatedCursor'; message: string }

interface Frame {
  seq: number
  body: Record<string, unknown>
}

/** What the host's stream watchdog (src/host/stream/connections.ts) reads of a running stream. */
export interface FirehoseProgress {
  cursor: string
  sendingSince: number
}

/**
 * The firehose (com.atproto.sync.subscribeRepos): every group's commits in the order they
 * were made, as `#commit` messages, read from the commits log (repo_event), so it sees
 * commits made by any host process on a shared PostgreSQL.
 *
 * One reader per process, however many streams: while anyone streams it looks for new
 * commits four times a second, keeps the latest `window` in memory and wakes the streams
 * waiting at the end. A stream further behind reads the log itself, a page at a time, so
 * what a stream costs is its own reading, never a poll of its own.
 */
export class Firehose {
  /** Every commit with `windowStart < seq <= head`, oldest first. */
  private recent: Frame[] = []
  private windowStart: number
  private head: number
  private readonly waiters = new WakeList()
  private streams = 0
  private timer: NodeJS.Timeout | undefined
  private reading: Promise<void> | null = null
  private closed = false
  /** The repos an operator took down (their frames are not sent), and when that was read. */
  private hidden: { repos: Set<string>; at: number } = { repos: new Set(), at: 0 }

  private constructor(
    private readonly db: Db,
    private readonly window: number,
    end: number,
  ) {
    this.windowStart = end
    this.head = end
  }

  static async open(db: Db, opts: { window?: number } = {}): Promise<Firehose> {
    return new Firehose(db, Math.max(1, opts.window ?? DEFAULT_WINDOW), await latestSeq(db))
  }

  /** How many streams this process is serving. */
  get open(): number {
    return this.streams
  }

  /**
   * One stream from `cursor` on (without one: from the next commit). A cursor past the
   * newest commit is `FutureCursor`. `progress` is kept current for the watchdog: the
   * cursor of the last frame handed over, and since when it waits to be taken.
   */
  async *stream(cursor: number | undefined, progress: FirehoseProgress, signal: AbortSignal): AsyncGenerator<RepoStreamMessage> {
    // Asked of the log, not of this process's view, which may be a poll behind.
    const newest = await latestSeq(this.db)
    if (cursor !== undefined && cursor > newest) throw new InvalidRequestError('That cursor is ahead of this host’s newest commit', 'FutureCursor')
    // After a quiet spell (no stream, so no reading) this process's view starts again at the end.
    if (this.streams === 0 && newest > this.head) {
      this.recent = []
      this.head = this.windowStart = newest
    }
    // Older than the log keeps (change-log-retention.ts prunes it): said, as a PDS's
    // firehose says it, and the stream goes on from the oldest commit kept.
    if (cursor !== undefined && cursor < (await oldestSeq(this.db)) - 1) {
      yield { $type: 'com.atproto.sync.subscribeRepos#info', name: 'OutdatedCursor', message: 'That cursor is older than the commits this host keeps; the stream goes on from the oldest one kept' }
    }
    let after = cursor ?? newest
    this.streams++
    this.start()
    try {
      while (!signal.aborted) {
        const behind = after < this.windowStart
        const frames = behind ? await this.readPage(after) : this.since(after)
        if (behind && frames.length === 0) {
          after = this.windowStart
          continue
        }
        if (frames.length === 0) {
          await this.until(after, signal)
          continue
        }
        const hidden = await this.takenDown()
        for (const frame of frames) {
          if (signal.aborted) return
          after = frame.seq
          if (hidden.has(String(frame.body.repo))) continue
          progress.cursor = String(frame.seq)
          progress.sendingSince = Date.now()
          yield { $type: 'com.atproto.sync.subscribeRepos#commit', seq: frame.seq, ...frame.body }
          progress.sendingSince = 0
        }
      }
    } finally {
      this.streams--
      if (this.streams === 0) this.stop()
    }
  }

  close(): void {
    this.closed = true
    this.stop()
    this.waiters.wakeAll()
  }

  /** The repos taken down by an operator (repo/takedown.ts), read again at most once a second. */
  private async takenDown(): Promise<Set<string>> {
    if (Date.now() - this.hidden.at > TAKEDOWNS_MS) this.hidden = { repos: await takenDownRepos(this.db), at: Date.now() }
    return this.hidden.repos
  }

  /** Commits after `seq` held in memory (`seq` at or past the window's start). */
  private since(seq: number): Frame[] {
    if (seq >= this.head) return []
    const first = this.recent.findIndex((f) => f.seq > seq)
    return first < 0 ? [] : this.recent.slice(first)
  }

  /** Resolves once the reader has gone past `seq`, or the stream ends. */
  private async until(seq: number, signal: AbortSignal): Promise<void> {
    while (this.head <= seq && !signal.aborted && !this.closed) await this.waiters.next(signal)
  }

  private async readPage(after: number): Promise<Frame[]> {
    const rows = await this.db.selectFrom('repo_event').select(['seq', 'frame']).where('seq', '>', after).orderBy('seq').limit(PAGE).execute()
    return rows.map((row) => ({ seq: row.seq, body: cborDecode(new Uint8Array(row.frame)) as Record<string, unknown> }))
  }

  private start(): void {
    if (this.timer || this.closed) return
    // Streams that open after a quiet spell start from the log's end as it is now.
    this.timer = setInterval(() => this.poll(), POLL_MS)
    this.timer.unref()
  }

  private stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  private poll(): void {
    if (this.reading || this.closed) return
    this.reading = this.catchUp()
      .catch(() => {
        // The database busy or gone: the next poll tries again; streams wait meanwhile.
      })
      .finally(() => {
        this.reading = null
      })
  }

  private async catchUp(): Promise<void> {
    for (;;) {
      const frames = await this.readPage(this.head)
      if (frames.length === 0) return
      this.recent.push(...frames)
      this.head = frames.at(-1)!.seq
      if (this.recent.length > this.window) {
        const dropped = this.recent.splice(0, this.recent.length - this.window)
        this.windowStart = dropped.at(-1)!.seq
      }
      this.waiters.wakeAll()
      if (frames.length < PAGE) return
    }
  }
}

async function latestSeq(db: Db): Promise<number> {
  const row = await db.selectFrom('repo_event').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst()
  return Number(row?.seq ?? 0)
}

/** The oldest commit kept; with none kept, 0 (so no cursor is outdated). */
async function oldestSeq(db: Db): Promise<number> {
  const row = await db.selectFrom('repo_event').select((eb) => eb.fn.min('seq').as('seq')).executeTakeFirst()
  return Number(row?.seq ?? 0)
}
