import type { Logger } from 'pino'
import { sql } from 'kysely'
import type { HostDb } from './db/index.js'
import { subtractPrunedFrames } from './repo/bounds.js'

/** How long the change log keeps an entry, by default (`--change-log-days`). */
export const DEFAULT_CHANGE_LOG_DAYS = 30

const DAY_MS = 86_400_000
const HOUR_MS = 3_600_000
/**
 * Entries deleted per statement. SQLite serves every request through one connection
 * (db/group-commit.ts), so one statement must not hold it for long: a few thousand rows
 * take milliseconds, and requests get their turn between batches.
 */
const BATCH = 5_000

/**
 * Deletes the change log's entries older than `keepMs`, oldest first, in batches, and
 * returns how many went. Every table a caller can grow has a bound: this is the log's.
 *
 * Only ever a prefix of the log goes (by `seq`, stopping at the first entry young enough
 * to keep, even if older ones follow it, as entries written by processes with skewed
 * clocks may), so the log's start (stream/log-horizon.ts `logStart`) is a true horizon:
 * a cursor at or past it has missed nothing, and one below it is refused. The newest
 * entry of the whole log is never deleted, however old, so that horizon stays known on a
 * quiet host (and SQLite never hands out a `seq` again).
 *
 * On PostgreSQL several processes may prune at once: each deletes a prefix below an
 * entry that existed when it began, and a row another already deleted is simply not
 * counted, so running twice is harmless.
 */
export function pruneChangeLog(db: HostDb, keepMs: number, opts: PruneOptions = {}): Promise<number> {
  return prunePrefix(
    {
      newest: async () => (await db.selectFrom('change').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst())?.seq,
      head: async (below) => (await db.selectFrom('change').select(['seq', 'createdAt']).where('seq', '<', below).orderBy('seq').limit(BATCH).execute()).map((r) => ({ seq: r.seq, at: r.createdAt })),
      deleteUpTo: async (seq) => Number((await db.deleteFrom('change').where('seq', '<=', seq).executeTakeFirst()).numDeletedRows),
    },
    keepMs,
    opts,
  )
}

/**
 * The same for the firehose's log (`repo_event`, every `#commit` frame of every group's
 * public repo, with the blocks of records since deleted): kept as long as the change log,
 * then gone, oldest first. A consumer whose cursor is older is told `OutdatedCursor`
 * (repo/firehose.ts) and goes on from the oldest frame kept, as a PDS's firehose does.
 * What goes is taken off each group's totals (repo/bounds.ts).
 */
export function pruneFirehoseLog(db: HostDb, keepMs: number, opts: PruneOptions = {}): Promise<number> {
  return prunePrefix(
    {
      newest: async () => (await db.selectFrom('repo_event').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst())?.seq,
      head: async (below) => (await db.selectFrom('repo_event').select(['seq', 'time']).where('seq', '<', below).orderBy('seq').limit(BATCH).execute()).map((r) => ({ seq: r.seq, at: r.time })),
      deleteUpTo: (seq) =>
        db.transaction().execute(async (tx) => {
          const gone = await tx.deleteFrom('repo_event').where('seq', '<=', seq).returning(['groupDid', sql<number>`length(frame)`.as('bytes')]).execute()
          await subtractPrunedFrames(tx, gone)
          return gone.length
        }),
    },
    keepMs,
    opts,
  )
}

interface PruneOptions {
  now?: number
  stopped?: () => boolean
}

/** A log kept by `seq` with the time each entry was written (ISO 8601). */
interface SeqLog {
  newest(): Promise<number | null | undefined>
  /** The oldest BATCH entries below `below`. */
  head(below: number): Promise<{ seq: number; at: string }[]>
  deleteUpTo(seq: number): Promise<number>
}

async function prunePrefix(log: SeqLog, keepMs: number, opts: PruneOptions): Promise<number> {
  const cutoff = new Date((opts.now ?? Date.now()) - keepMs).toISOString()
  const newest = await log.newest()
  if (newest == null) return 0
  let deleted = 0
  while (!opts.stopped?.()) {
    const head = await log.head(Number(newest))
    const firstKept = head.findIndex((row) => row.at >= cutoff)
    const old = firstKept === -1 ? head.length : firstKept
    if (old === 0) break
    deleted += await log.deleteUpTo(head[old - 1]!.seq)
    if (old < BATCH) break
    // Let the requests waiting for the database go first.
    await new Promise((resolve) => setImmediate(resolve))
  }
  return deleted
}

/** How often a process prunes: a tenth of the retention, at most hourly (and at least every 100 ms, for tests). */
export const pruneIntervalMs = (days: number) => Math.max(100, Math.min(HOUR_MS, (days * DAY_MS) / 10))

/**
 * Prunes the change log and the firehose's log now and then on a timer (unref'd: it never keeps the process
 * alive) until stopped. Every host process runs one; on PostgreSQL they overlap
 * harmlessly. A failed pass (the database busy) is logged and tried again next time.
 */
export function startChangeLogPruning(db: HostDb, opts: { days: number; logger: Logger }): { stop(): Promise<void> } {
  const keepMs = opts.days * DAY_MS
  let stopped = false
  let running: Promise<void> | null = null
  const pass = async () => {
    const started = performance.now()
    try {
      const deleted = await pruneChangeLog(db, keepMs, { stopped: () => stopped })
      if (deleted > 0) opts.logger.info({ deleted, ms: Math.round(performance.now() - started) }, 'change log pruned')
      const frames = await pruneFirehoseLog(db, keepMs, { stopped: () => stopped })
      if (frames > 0) opts.logger.info({ deleted: frames, ms: Math.round(performance.now() - started) }, 'firehose log pruned')
    } catch (err) {
      opts.logger.warn({ err }, 'change log pruning failed; trying again at the next turn')
    }
  }
  // A pass still going when the next is due (a very long log) is left to finish.
  const turn = () => {
    running ??= pass().finally(() => (running = null))
  }
  const timer = setInterval(turn, pruneIntervalMs(opts.days))
  timer.unref()
  // A host restarted more often than the interval still prunes.
  turn()
  return {
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
    },
  }
}

/** The retention in words, for messages: "30 days", "12 hours", "3 seconds". */
export function retentionText(days: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`
  const round = (n: number) => Math.round(n * 10) / 10
  const seconds = days * 86_400
  if (seconds < 120) return plural(round(seconds), 'second')
  if (seconds < 2 * 3600) return plural(round(seconds / 60), 'minute')
  if (days < 2) return plural(round(seconds / 3600), 'hour')
  return plural(round(days), 'day')
}
