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
 * The oldest `seq` the log still holds, less one: a cursor below it may have missed
 * entries the host no longer keeps (../change-log-retention.ts prunes the log from its
 * start, and keeps its newest entry). Read it after reading what a cursor asked for:
 * pruning only ever takes a prefix, so if the cursor is not below it then, nothing after
 * the cursor was gone when it was read.
 */
export async function logStart(db: HostDb): Promise<number> {
  const row = await db.selectFrom('change').select((eb) => eb.fn.min('seq').as('seq')).executeTakeFirst()
  return row?.seq == null ? 0 : Number(row.seq) - 1
}

/**
 * How far a reader of one group's log may be told it has read: a position in the host's
 * whole log such that every entry of the group at or below it that will ever be visible
 * already is. `listChanges` gives it as the cursor of a page that reached the end, so a
 * client polling a quiet group still moves along with the log and its cursor stays
 * inside what the log keeps (a cursor at the group's own last entry would fall behind
 * the log's start once that entry was pruned, and be refused as outdated).
 *
 * SQLite: the log's last `seq` (one writer, commits in `seq` order). PostgreSQL: the
 * last `seq` handed out, if no transaction holds the group's lock (db/group-lock.ts) just
 * after it was read: a writer takes that lock before its `seq` and holds it to its end,
 * so any entry of the group at or below that `seq` has committed by then. If a writer
 * holds it, the group's last entry, as before; nobody waits on anybody.
 */
export async function groupLogEnd(db: HostDb, groupDid: string): Promise<number> {
  if (isPostgres(db)) {
    const end = await db.connection().execute(async (conn) => {
      const handedOut = await sql<{ seq: number | string | null }>`SELECT pg_sequence_last_value(pg_get_serial_sequence('change', 'seq')::regclass) AS seq`.execute(conn)
      // Taken and dropped in one statement: a shared hold is never left on a pooled connection.
      const free = await sql<{ free: boolean }>`
        SELECT CASE WHEN pg_try_advisory_lock_shared(hashtext(${groupDid})) THEN pg_advisory_unlock_shared(hashtext(${groupDid})) ELSE false END AS free`.execute(conn)
      return free.rows[0]?.free ? Number(handedOut.rows[0]?.seq ?? 0) : null
    })
    if (end !== null) return end
    const row = await db.selectFrom('change').select((eb) => eb.fn.max('seq').as('seq')).where('groupDid', '=', groupDid).executeTakeFirst()
    return Number(row?.seq ?? 0)
  }
  return settledEnd(db)
}
