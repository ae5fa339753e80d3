import type { Kysely } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { refuse } from '../errors.js'
import { loadGroup, viewerOf, type GroupLookup } from '../groups/access.js'
import { formatSpaceAddress, parseSpaceAddress } from '../../shared/space-address.js'
import { findMemberRecord } from './member-records.js'
import { recordUri, type RecordKey } from './records.js'
import { recordReader, type RecordReader } from './record-visibility.js'
import { canRead, loadSpace, type Space } from './space.js'

/**
 * The space a reader asks about, if they may read it: a member of its group holding a
 * role in its `readableBy`. Non-members are refused before the space is looked up, so
 * they learn nothing about which spaces exist. With it, the reader as every record
 * served from it is checked for (spaces/record-visibility.ts).
 */
export async function readableSpace(ctx: GroupLookup, spaceParam: string, reader: string): Promise<{ space: Space; reader: RecordReader }> {
  const address = parseSpaceAddress(spaceParam)
  if (!address) throw refuse('InvalidRequest', 'space must be a space address: at://<group_did>/space/<space_type>/<skey>')
  const group = await loadGroup(ctx, address.authority)
  const viewer = await viewerOf(ctx.db, group.did, reader)
  if (!viewer.isMember) throw refuse('Forbidden', 'Only members of the group can read its spaces')
  const space = await loadSpace(ctx.db, formatSpaceAddress(address))
  if (!canRead(space, viewer)) throw refuse('Forbidden', `The ${space.type} space is not readable by your roles (${viewer.roles.join(', ')})`)
  return { space, reader: recordReader(viewer, group.did, [space]) }
}

/**
 * A record the host keeps in one of a group's spaces, whoever may see it: the group's
 * own (`repo` = the group) or a member's checked copy. Callers serve it only as
 * record-visibility.ts says.
 */
export async function findStoredRecord(db: Kysely<HostDatabaseSchema>, groupDid: string, key: RecordKey): Promise<{ uri: string; cid: string; value: string } | undefined> {
  const uri = recordUri(key)
  const row =
    key.repo === groupDid
      ? await db.selectFrom('record').select(['cid', 'value']).where('uri', '=', uri).executeTakeFirst()
      : await findMemberRecord(db, key)
  return row && { uri, ...row }
}
