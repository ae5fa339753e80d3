import type { Kysely, Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { groupTransaction } from '../db/group-lock.js'
import { refuse } from '../errors.js'
import { viewerOf } from '../groups/access.js'
import { allowsCollection, findSpace, writableCollections, type Space } from './space.js'
import type { SpaceAction } from '../../shared/space-scope.js'

type Db = Kysely<HostDatabaseSchema>

/** What a token lets its holder write for a group, in which spaces (and, for sessions, with which actions). */
export interface WriteGrant {
  /** The group DID: the token acts for it. */
  group: string
  /** The person whose roles decide what it may do. */
  actor: string
  /** Thumbprint of the DPoP key it is bound to. */
  jkt: string
  /** A `getGroupAuth` credential names one space (all three actions); a session as many as its scope. */
  spaces: { space: string; collections: string[]; actions: readonly SpaceAction[] }[]
  /** Its `repo:` permissions in the group's public repo (src/host/repo/authorize.ts); absent: none. */
  repoScopes?: string[]
}

/**
 * May this group credential write `collection` in `space` for `repo`? The repo must be
 * the group's (a credential acts for the group, spec section 5.5), the space the one it
 * was granted for, and the collection allowed both by the token and by the space's
 * access record as it is now for the member holding it: changed `credentialScopes`, a
 * revoked role or a left group take effect at once, not when the token expires.
 */
export async function authorizeGroupWrite(
  db: Db,
  grant: WriteGrant,
  write: { space: string; repo: string; collection: string; actions: SpaceAction[] },
): Promise<Space> {
  if (write.repo !== grant.group) {
    throw refuse('InvalidRequest', `repo must be the group DID (${grant.group}): a group credential writes the group's records only`)
  }
  const granted = grant.spaces.find((s) => s.space === write.space)
  if (!granted) {
    const named = grant.spaces.map((s) => s.space).join(', ') || 'no space'
    throw refuse('Forbidden', `This credential is for ${named}; get one for ${write.space}`)
  }
  if (!write.actions.every((a) => granted.actions.includes(a))) {
    throw refuse('Forbidden', `This session's scope does not allow ${write.actions.join(' and ')} in the space`)
  }
  const space = await findSpace(db, granted.space)
  if (!space) throw refuse('SpaceNotFound', `The space ${granted.space} no longer exists`)
  const now = writableCollections(space, await viewerOf(db, grant.group, grant.actor))
  if (!allowsCollection(granted.collections, write.collection) || !allowsCollection(now, write.collection)) {
    throw refuse('Forbidden', `This credential may not write ${write.collection} in the space`)
  }
  return space
}

/**
 * A write as the group into one of its spaces, the one way in (issue 37 point 6): the
 * group's lock first, then the credential checked against the roles as they stand under
 * it, then `write`, in one transaction. Checked before the lock, a role taken away by a
 * transaction still committing was read as still held on PostgreSQL, and the write went
 * in after the revocation. (The lock is a no-op on SQLite, which writes one at a time.)
 */
export function writeAsGroup<R>(
  db: Kysely<HostDatabaseSchema>,
  grant: WriteGrant,
  write: { space: string; repo: string; collection: string; actions: SpaceAction[] },
  fn: (tx: Transaction<HostDatabaseSchema>, space: Space) => Promise<R>,
): Promise<R> {
  return groupTransaction(db, grant.group, async (tx) => fn(tx, await authorizeGroupWrite(tx, grant, write)))
}
