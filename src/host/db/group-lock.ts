import { sql, type Transaction } from 'kysely'
import type { HostDatabaseSchema } from './schema.js'
import type { HostDb } from './index.js'
import { isPostgres } from './dialect.js'

type Tx = Transaction<HostDatabaseSchema>

/** The groups whose lock each open transaction already holds (it lasts until the transaction ends). */
const held = new WeakMap<Tx, Set<string>>()

/**
 * Makes `tx` the group's only writer until it ends. A check that spans rows (someone is
 * left able to configure the group; a banned person is not admitted) holds only if
 * nobody else changes those rows between the check and the commit. On PostgreSQL each
 * statement of a READ COMMITTED transaction sees what others committed before it, so two
 * members leaving at once each counted the other still there and both left: the lock is
 * taken first, before anything is read, and a second writer waits for the first to
 * commit and then reads what it did. SQLite runs one transaction at a time anyway.
 * Taking it again in the same transaction does nothing.
 */
export async function lockGroup(tx: Tx, groupDid: string): Promise<void> {
  const groups = held.get(tx) ?? new Set<string>()
  held.set(tx, groups)
  if (groups.has(groupDid)) return
  groups.add(groupDid)
  if (isPostgres(tx)) await sql`SELECT pg_advisory_xact_lock(hashtext(${groupDid}))`.execute(tx)
}

/**
 * For checks that are only true under the group's lock: a path that reaches one without
 * having taken it is a bug, and fails here on either store rather than racing on one.
 */
export function requireGroupLock(tx: Tx, groupDid: string): void {
  if (!held.get(tx)?.has(groupDid)) throw new Error(`This check needs the lock of ${groupDid}, taken at the start of the transaction`)
}

/** A transaction that starts by taking the group's lock (see {@link lockGroup}). */
export function groupTransaction<R>(db: HostDb, groupDid: string, fn: (tx: Tx) => Promise<R>): Promise<R> {
  return db.transaction().execute(async (tx) => {
    await lockGroup(tx, groupDid)
    return fn(tx)
  })
}
