import { sql, type Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { isPostgres } from '../db/dialect.js'
import { refuse } from '../errors.js'
import type { Viewer } from '../groups/access.js'
import type { PreparedRecord, RecordKey } from './records.js'
import { canRead, type Space } from './space.js'

type Tx = Transaction<HostDatabaseSchema>

/**
 * The most records the host keeps of one member in one space: an RSVP to every weekly
 * meetup for decades fits, and a member cannot make the host store without end whatever
 * their PDS took.
 */
export const MAX_MEMBER_RECORDS_PER_SPACE = 2_000

/**
 * The most bytes (of the records' JSON) the host keeps of one member in one space: a
 * couple of thousand RSVPs take a few hundred KB, while twenty records at the 200 KB
 * read limit would fill it.
 */
export const MAX_MEMBER_RECORD_BYTES_PER_SPACE = 4_000_000

/**
 * Why the host keeps no record of this member in this space, or undefined when it may.
 * A member writes only where they read (a space whose `readableBy` holds one of their
 * roles): what the host keeps there is served to that space's readers, so writing where
 * one cannot read would put words in front of people one cannot see. Never in `meta`,
 * which holds what the host publishes about the group. Acceptances live in `members`,
 * which every role reads.
 */
export function whyNotKept(space: Space, writer: Viewer): string | undefined {
  if (space.type === 'meta') return 'The meta space holds only what the host publishes about the group: members’ records are not kept there'
  if (!canRead(space, writer)) return `The ${space.type} space is not readable by your roles (${writer.roles.join(', ') || 'none'}): the host keeps your records only in spaces you may read`
  return undefined
}

/** SQL for a text column's size in bytes: SQLite's length() counts characters, unless given a blob. */
const byteLength = (tx: Tx) => (isPostgres(tx) ? sql<number>`octet_length(value)` : sql<number>`length(cast(value as blob))`)

/**
 * Refuses (`InvalidRequest`) a record that would take its author past what the host
 * keeps of one member in one space, counting everything kept of them there but the
 * version it replaces. Inside the write's transaction.
 */
export async function assertWithinMemberBounds(tx: Tx, key: RecordKey, record: PreparedRecord): Promise<void> {
  const kept = await tx
    .selectFrom('member_record')
    .select((eb) => [eb.fn.countAll<number | string>().as('records'), eb.fn.coalesce(eb.fn.sum<number | string>(byteLength(tx)), sql<number>`0`).as('bytes')])
    .where('space', '=', key.space)
    .where('repo', '=', key.repo)
    .where((eb) => eb.not(eb.and([eb('collection', '=', key.collection), eb('rkey', '=', key.rkey)])))
    .executeTakeFirstOrThrow()
  if (Number(kept.records) + 1 > MAX_MEMBER_RECORDS_PER_SPACE) {
    throw refuse('InvalidRequest', `The host keeps at most ${MAX_MEMBER_RECORDS_PER_SPACE} of one member’s records in one space, and has that many of yours in this one: delete some first`)
  }
  const bytes = Number(kept.bytes) + Buffer.byteLength(record.json)
  if (bytes > MAX_MEMBER_RECORD_BYTES_PER_SPACE) {
    throw refuse('InvalidRequest', `The host keeps at most ${MAX_MEMBER_RECORD_BYTES_PER_SPACE} bytes of one member’s records in one space, and this one would take yours in this one to ${bytes}: delete some first`)
  }
}
