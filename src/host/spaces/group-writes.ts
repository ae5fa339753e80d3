import type { Kysely } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import type { GroupGrant } from '../auth/group-token.js'
import { refuse } from '../errors.js'
import { viewerOf } from '../groups/access.js'
import { allowsCollection, findSpace, writableCollections, type Space } from './space.js'

type Db = Kysely<HostDatabaseSchema>

/**
 * May this group credential write `collection` in `space` for `repo`? The repo must be
 * the group's (a credential acts for the group, spec section 5.5), the space the one it
 * was granted for, and the collection allowed both by the token and by the space's
 * access record as it is now for the member holding it: changed `credentialScopes`, a
 * revoked role or a left group take effect at once, not when the token expires.
 */
export async function authorizeGroupWrite(db: Db, grant: GroupGrant, write: { space: string; repo: string; collection: string }): Promise<Space> {
  if (write.repo !== grant.group) {
    throw refuse('InvalidRequest', `repo must be the group DID (${grant.group}): a group credential writes the group's records only`)
  }
  if (write.space !== grant.space) throw refuse('Forbidden', `This credential is for the space ${grant.space}; get one for ${write.space}`)
  const space = await findSpace(db, grant.space)
  if (!space) throw refuse('SpaceNotFound', `The space ${grant.space} no longer exists`)
  const now = writableCollections(space, await viewerOf(db, grant.group, grant.actor))
  if (!allowsCollection(grant.collections, write.collection) || !allowsCollection(now, write.collection)) {
    throw refuse('Forbidden', `This credential may not write ${write.collection} in the space`)
  }
  return space
}
