import { sql } from 'kysely'
import type { HostDb } from '../db/index.js'
import { isPostgres } from '../db/dialect.js'
import { WRITER_LOCK_CLASS } from './log-signals.js'

/**
 * The settled end of the change log: the highest `seq` such that every entry at or
 * below it that will ever be visible already is. The stream reads no further, so a
 * client that resumes after an entry never misses one with a lower `seq` that committed
 * later.
 *
 * SQLite has one writer and commits in `seq` order: the end is the largest `seq`. (Read
 * through the group-commit connection, a read answers only once what it saw is durable.)
 *
 * PostgreSQL hands out `seq` when a transaction inserts, not when it commits, and two
 * groups' writers do not wait for each other: 11 may commit before 10. So: first the
 * last `seq` handed out; then every transaction that holds the writer lock (./log-signals.ts:
 * taken before its `seq`), each waited for in turn. Once none of those is in flight, every
 * `seq` up to the first reading has committed or rolled back. Each lock is held by the
 * reader only for the instant between taking and dropping it, waiting on nothing else
 * meanwhile, so a writer never waits on a reader that waits on it.
 */
export async function settledEnd(db: HostDb): Promise<number> {
  if (!isPostgres(db)) {
    const row = await db.selectFrom('change').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst()
    return Number(row?.seq ?? 0)
  }
  return db.connection().execute(async (conn) => {
    const handedOut = await sql<{ seq: number | string | null }>`SELECT pg_sequence_last_value(pg_get_serial_sequence('change', 'seq')::regclass) AS seq`.execute(conn)
    const end = Number(handedOut.rows[0]?.seq ?? 0)
    const writers = await sql<{ pid: number }>`
      SELECT DISTINCT objid::int AS pid FROM pg_locks
      WHERE locktype = 'advisory' AND classid = ${sql.lit(WRITER_LOCK_CLASS)}::oid AND objsubid = 2 AND granted AND pid <> pg_backend_pid()`.execute(conn)
    for (const { pid } of writers.rows) {
      await sql`SELECT pg_advisory_lock_shared(${sql.lit(WRITER_LOCK_CLASS)}, ${pid}::int)`.execute(conn)
      await sql`SELECT pg_advisory_unlock_shared(${sql.lit(WRITER_LOCK_CLASS)}, ${pid}::int)`.execute(conn)
    }
    return end
  })
}

/**
 * The oldest `seq` the log still holds, less one: a cursor below it names entries no
 * longer kept (nothing prunes the log today, so only a cursor the host never gave out).
 */
export async function logStart(db: HostDb): Promise<number> {
  const row = await db.selectFrom('change').select((eb) => eb.fn.min('seq').as('seq')).executeTakeFirst()
  return row?.seq == null ? 0 : Number(row.seq) - 1
}
