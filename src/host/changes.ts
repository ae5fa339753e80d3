import { sql, type Transaction } from 'kysely'
import { isPostgres } from './db/dialect.js'
import type { HostDatabaseSchema } from './db/schema.js'
import { noteChangeWritten, writingToLog } from './stream/log-signals.js'
import { decodeCursor, encodeCursor } from './pagination.js'
import { refuse } from './errors.js'

/**
 * What the change log records, for clients catching up after being away
 * (`example.groups.listChanges`). Written in the same transaction as the change.
 */
export type ChangeKind =
  | 'group.created'
  | 'group.configured'
  | 'joinRequest.created'
  | 'joinRequest.cancelled'
  | 'joinRequest.admitted'
  | 'joinRequest.denied'
  | 'member.joined'
  | 'member.left'
  | 'member.ejected'
  | 'member.accepted'
  | 'member.acceptanceWithdrawn'
  | 'member.roleGranted'
  | 'member.roleRevoked'
  | 'ban.created'
  | 'ban.lifted'
  | 'invite.created'
  | 'invite.revoked'
  | 'invite.redeemed'
  | 'space.created'
  | 'space.updated'
  | 'space.deleted'
  | 'record.created'
  | 'record.updated'
  | 'record.deleted'
  /** A moderator took the record down: members are no longer served it (issue 17). */
  | 'record.takenDown'
  | 'record.restored'
  | 'subject.reported'
  | 'subject.updated'

export async function recordChange(
  tx: Transaction<HostDatabaseSchema>,
  groupDid: string,
  kind: ChangeKind,
  subject: string | null,
): Promise<void> {
  // Readers page a group's changes by `seq`. PostgreSQL hands out sequence numbers as
  // transactions ask, not as they commit: two processes' writes could commit 11 before
  // 10, and a reader who saw 11 would never see 10. One writer per group at a time (a
  // transaction-long lock) makes `seq` order commit order within the group. SQLite has
  // one writer anyway.
  //
  // The change stream (src/host/stream) reads the log host-wide, across groups, so each
  // transaction that writes to it also says so, once: it holds its writer lock until it
  // ends (stream/log-horizon.ts waits on it before reading past its entries) and NOTIFYs
  // every host process, which PostgreSQL delivers at commit. On SQLite the stream of this
  // one process is told here; it reads through the same connection, which answers only
  // once the write is committed (db/group-commit.ts).
  if (isPostgres(tx)) {
    const lockGroup = !holdsGroupLock(tx, groupDid)
    const announce = !announced.has(tx)
    announced.add(tx)
    if (lockGroup && announce) await sql`SELECT pg_advisory_xact_lock(hashtext(${groupDid})), ${writingToLog()}`.execute(tx)
    else if (lockGroup) await sql`SELECT pg_advisory_xact_lock(hashtext(${groupDid}))`.execute(tx)
    else if (announce) await sql`SELECT ${writingToLog()}`.execute(tx)
  }
  await tx.insertInto('change').values({ groupDid, kind, subject, createdAt: new Date().toISOString() } as never).execute()
  if (!isPostgres(tx)) noteChangeWritten()
}

/** The open transactions that already announced their log writes to the change stream. */
const announced = new WeakSet<Transaction<HostDatabaseSchema>>()

/** The groups whose change-log lock each open transaction already holds (it lasts until the transaction ends). */
const locked = new WeakMap<Transaction<HostDatabaseSchema>, Set<string>>()

/** Whether `tx` already took the group's lock; marks it taken otherwise. */
function holdsGroupLock(tx: Transaction<HostDatabaseSchema>, groupDid: string): boolean {
  const groups = locked.get(tx) ?? new Set<string>()
  locked.set(tx, groups)
  if (groups.has(groupDid)) return true
  groups.add(groupDid)
  return false
}

/**
 * The change log's cursor, for `listChanges` and the change stream alike: the `seq` of
 * the last entry seen (opaque to clients). `seq` is one count across the host's groups,
 * so one cursor is a position in any group's log and in the host's whole log.
 */
export const changeCursor = (seq: number): string => encodeCursor(seq)

/** The `seq` a cursor names; none means before the first entry. */
export function parseChangeCursor(cursor: string | undefined): number {
  const raw = decodeCursor(cursor)
  if (raw === undefined) return 0
  if (!/^\d{1,15}$/.test(raw)) throw refuse('InvalidRequest', 'Malformed cursor')
  return Number(raw)
}
