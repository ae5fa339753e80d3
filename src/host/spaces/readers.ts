import type { HostContext } from '../context.js'
import { refuse } from '../errors.js'
import { loadGroup, viewerOf } from '../groups/access.js'
import { formatSpaceAddress, parseSpaceAddress } from '../../shared/space-address.js'
import { canRead, loadSpace, type Space } from './space.js'

/**
 * The space a reader asks about, if they may read it: a member of its group holding a
 * role in its `readableBy`. Non-members are refused before the space is looked up, so
 * they learn nothing about which spaces exist.
 */
export async function readableSpace(ctx: HostContext, spaceParam: string, reader: string): Promise<Space> {
  const address = parseSpaceAddress(spaceParam)
  if (!address) throw refuse('InvalidRequest', 'space must be a space address: at://<group_did>/space/<space_type>/<skey>')
  const group = await loadGroup(ctx, address.authority)
  const viewer = await viewerOf(ctx.db, group.did, reader)
  if (!viewer.isMember) throw refuse('Forbidden', 'Only members of the group can read its spaces')
  const space = await loadSpace(ctx.db, formatSpaceAddress(address))
  if (!canRead(space, viewer)) throw refuse('Forbidden', `The ${space.type} space is not readable by your roles (${viewer.roles.join(', ')})`)
  return space
}
