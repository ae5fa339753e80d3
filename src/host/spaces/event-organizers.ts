import type { Kysely } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { refuse } from '../errors.js'
import { loadGroup, viewerOf, type GroupLookup } from '../groups/access.js'
import type { GroupTable } from '../db/schema.js'
import { formatSpaceAddress, parseSpaceAddress } from '../../shared/space-address.js'
import { allowsCollection, loadSpace, writableCollections, type Space } from './space.js'

const EVENT = 'community.lexicon.calendar.event'

/**
 * The space and group of a capacity or standing call, if the caller may organize its
 * events: a member whose roles may write `community.lexicon.calendar.event` there (its
 * `credentialScopes` name the collection or `*`), as a group credential to write the
 * event would need. Others are refused with `Forbidden`.
 */
export async function eventOrganizerSpace(ctx: GroupLookup & { db: Kysely<HostDatabaseSchema> }, spaceParam: string, caller: string): Promise<{ group: GroupTable; space: Space }> {
  const address = parseSpaceAddress(spaceParam)
  if (!address) throw refuse('InvalidRequest', 'space must be a space address: at://<group_did>/space/<space_type>/<skey>')
  const group = await loadGroup(ctx, address.authority)
  const viewer = await viewerOf(ctx.db, group.did, caller)
  if (!viewer.isMember) throw refuse('Forbidden', 'Only members of the group can organize its events')
  const space = await loadSpace(ctx.db, formatSpaceAddress(address))
  if (!allowsCollection(writableCollections(space, viewer), EVENT)) {
    throw refuse('Forbidden', 'Your roles may not write events in this space, so they may not set places at them either')
  }
  return { group, space }
}
