import { EventEmitter } from 'node:events'
import { sql, type RawBuilder } from 'kysely'

/**
 * How a write to the change log reaches the change stream (docs/host.md, "The change
 * stream"), on each store.
 *
 * PostgreSQL, any number of host processes: a transaction that writes to the log takes
 * the writer lock keyed by its own backend (released when it ends), before it takes a
 * `seq`, and NOTIFYs {@link CHANGES_CHANNEL}. PostgreSQL delivers the notification to
 * every listening process at commit, and ./log-horizon.ts waits for the writer locks
 * held before it reads, so no process streams an entry while an earlier `seq` may still
 * commit.
 *
 * SQLite, one process: the stream of this process is told in-process.
 */

/** The first key of the writer lock (two-key advisory lock: this, the backend's pid); "chng" in ASCII. */
export const WRITER_LOCK_CLASS = 0x63686e67
/** The channel every host process LISTENs on. */
export const CHANGES_CHANNEL = 'convene_changes'

/** SQL select items, for one statement of a transaction before its first log write (PostgreSQL). */
export function writingToLog(): RawBuilder<unknown> {
  return sql`pg_advisory_xact_lock(${sql.lit(WRITER_LOCK_CLASS)}, pg_backend_pid()), pg_notify(${sql.lit(CHANGES_CHANNEL)}, '')`
}

const written = new EventEmitter()
written.setMaxListeners(0)

/** A change-log entry was written in this process (SQLite). */
export function noteChangeWritten(): void {
  written.emit('written')
}

/** Calls `listener` after each {@link noteChangeWritten}; returns how to stop. */
export function onChangeWritten(listener: () => void): () => void {
  written.on('written', listener)
  return () => written.off('written', listener)
}
