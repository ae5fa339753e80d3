import type { Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { formatSpaceAddress } from '../../shared/space-address.js'
import { putIndexRecord } from './space-index.js'
import type { Space } from './space.js'

type Tx = Transaction<HostDatabaseSchema>

/**
 * Every group has two well-known spaces (spec section 2), made with the group, never
 * updated or deleted (`WellKnownSpace`):
 *
 * - `members` holds the space index (one `example.groups.space` record per space, the
 *   well-known ones included, written by the host) and what members write there (their
 *   acceptances live on their own PDS). It deliberately grants no role any write
 *   credential.
 * - `meta` is for what the host publishes about the group. Since its access record can
 *   never change, it grants no write credential either: a credential it granted could
 *   never be taken back from the role. The group's profile changes through
 *   `configureGroup`.
 *
 * Both are readable by every member: by each of the group's roles (a member holds at
 * least one, and `owner` does not imply `member`, so naming `member` alone would shut
 * the owner out).
 */
export const WELL_KNOWN_SPACE_TYPES = ['meta', 'members'] as const

export const isWellKnownSpaceType = (type: string) => (WELL_KNOWN_SPACE_TYPES as readonly string[]).includes(type)

const WELL_KNOWN_NAMES: Record<(typeof WELL_KNOWN_SPACE_TYPES)[number], string> = {
  meta: 'Group information',
  members: 'Members',
}

/**
 * Creates the group's `meta` and `members` spaces with their index records, inside the
 * group's creation transaction, after its roles. Idempotent: a space that exists already
 * is left alone.
 */
export async function createWellKnownSpaces(tx: Tx, groupDid: string, now: string): Promise<void> {
  const roles = await tx.selectFrom('role').select('name').where('groupDid', '=', groupDid).orderBy('name').execute()
  for (const type of WELL_KNOWN_SPACE_TYPES) {
    const space: Space = {
      uri: formatSpaceAddress({ authority: groupDid, type, skey: 'self' }),
      groupDid,
      type,
      skey: 'self',
      name: WELL_KNOWN_NAMES[type],
      readableBy: roles.map((r) => r.name),
      credentialScopes: [],
      createdAt: now,
      updatedAt: now,
    }
    const inserted = await tx
      .insertInto('space')
      .values({ ...space, readableBy: JSON.stringify(space.readableBy), credentialScopes: JSON.stringify(space.credentialScopes) })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst()
    if (Number(inserted.numInsertedOrUpdatedRows) > 0) await putIndexRecord(tx, space, now)
  }
}
