import { sql, type Transaction } from 'kysely'
import { lockGroup } from './db/group-lock.js'
import { isPostgres } from './db/dialect.js'
import type { HostDatabaseSchema } from './db/schema.js'
import { noteChangeWritten, writingToLog } from './stream/log-signals.js'
import { decodeCursor, encodeCursor } from './pagination.js'
import { currentActing } from './audit/acting.js'
import type { KnownValues } from '../shared/known-values.js'
import type { Change } from '../node/lexicon/types/example/groups/defs.js'

/**
 * What the change log records, for clients catching up after being away
 * (`example.groups.listChanges`). Written in the same transaction as the change. The
 * kinds are the lexicon's (defs.json#change.kind knownValues), which the app matches too.
 */
export type ChangeKind = KnownValues<Change['kind']>

export async function recordChange(
  tx: Transaction<HostDatabaseSchema>,
  groupDid: string,
  kind: ChangeKind,
  subject: string | null,
): Promise<number> {
  // Readers page a group's changes by `seq`. PostgreSQL hands out sequence numbers as
  // transactions ask, not as they commit: two processes' writes could commit 11 before
  // 10, and a reader who saw 11 would never see 10. One writer per group at a time (the
  // group's lock, held to the transaction's end) makes `seq` order commit order within
  // the group. SQLite has one writer anyway.
  //
  // The change stream (src/host/stream) reads the log host-wide, across groups, so each
  // transaction that writes to it also says so, once: it holds its writer lock until it
  // ends (stream/log-horizon.ts waits on it before reading past its entries) and NOTIFYs
  // every host process, which PostgreSQL delivers at commit. On SQLite the stream of this
  // one process is told here; it reads through the same connection, which answers only
  // once the write is committed (db/group-commit.ts).
  const acting = currentActing()
  await lockGroup(tx, groupDid)
  if (isPostgres(tx) && !announced.has(tx)) {
    announced.add(tx)
    await sql`SELECT ${writingToLog()}`.execute(tx)
  }
  const { seq } = await tx
    .insertInto('change')
    .values({ groupDid, kind, subject, createdAt: new Date().toISOString(), actor: acting?.did ?? null, via: acting?.via ?? null } as never)
    .returning('seq')
    .executeTakeFirstOrThrow()
  if (!isPostgres(tx)) noteChangeWritten()
  lastRecorded.set(tx, Number(seq))
  return Number(seq)
}

/** Per open transaction, the `seq` of the last change it recorded. */
const lastRecorded = new WeakMap<Transaction<HostDatabaseSchema>, number>()

/**
 * The change-log position of the last change `tx` recorded, if any: what a write
 * procedure answers as `seq`, so the caller knows what its call made without asking
 * `listChanges`. Read it before the transaction ends.
 */
export const lastChangeIn = (tx: Transaction<HostDatabaseSchema>): number | undefined => lastRecorded.get(tx)

/** The `seq` part of a write procedure's answer: absent when the call recorded nothing. */
export const seqField = (seq: number | undefined): { seq?: number } => (seq === undefined ? {} : { seq })

/** The open transactions that already announced their log writes to the change stream. */
const announced = new WeakSet<Transaction<HostDatabaseSchema>>()

/**
 * The change log's cursor, for `listChanges` and the change stream alike: the `seq` of
 * the last entry seen (opaque to clients). `seq` is one count across the host's groups,
 * so one cursor is a position in any group's log and in the host's whole log.
 */
export const changeCursor = (seq: number): string => encodeCursor(seq)

/** The `seq` a cursor names; none means before the first entry. */
export const parseChangeCursor = (cursor: string | undefined): number => decodeCursor(cursor, ['int']) ?? 0
