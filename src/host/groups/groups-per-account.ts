import { sql, type Kysely, type Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { isPostgres } from '../db/dialect.js'
import { refuse } from '../errors.js'

/** `--max-groups-per-account`'s default: far more than a person organizes, far fewer than a script makes. */
export const DEFAULT_MAX_GROUPS_PER_ACCOUNT = 100

/**
 * First key of the advisory locks below ("crea" in ASCII): two-key advisory locks never
 * meet the one-key ones the group lock takes (db/group-lock.ts).
 */
const CREATOR_LOCK_SPACE = 0x63726561

/**
 * Refuses `creator` a group past the `max` they may have created on this host: each
 * group is rows the host keeps for ever and a DID minted on the PLC, and createGroup's
 * hourly rate limit alone would let an account make any number over time. Not a rate
 * limit (waiting does not help), so 400 InvalidRequest, naming the cap.
 *
 * In a transaction (`db.isTransaction`) it first makes that transaction the creator's
 * only group-maker until it ends, so concurrent creations cannot each count the others
 * absent: on PostgreSQL an advisory lock (READ COMMITTED would let both count before
 * either inserts); SQLite runs one transaction at a time anyway. Outside one it is a
 * cheap early check, made before the PLC is asked for a DID.
 */
export async function requireRoomForGroup(db: Kysely<HostDatabaseSchema> | Transaction<HostDatabaseSchema>, creator: string, max: number): Promise<void> {
  if (db.isTransaction && isPostgres(db)) await sql`SELECT pg_advisory_xact_lock(${CREATOR_LOCK_SPACE}, hashtext(${creator}))`.execute(db)
  const { n } = await db
    .selectFrom('group')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('createdBy', '=', creator)
    .executeTakeFirstOrThrow()
  if (Number(n) >= max) {
    throw refuse('InvalidRequest', `This host lets one account create at most ${max} groups, and you have created ${Number(n)}: it makes no more for you`)
  }
}
