import type { Transaction } from 'kysely'
import { capReached } from '../limits/refusal.js'
import type { HostDatabaseSchema } from '../db/schema.js'
import { refuse } from '../errors.js'
import { recordChange } from '../changes.js'
import { requireGroupLock } from '../db/group-lock.js'
import { checkCredentialScopes, checkName, checkReadableBy } from './space-config.js'
import { findSpace, loadSpace, type CredentialScope, type Space } from './space.js'
import { deleteIndexRecord, putIndexRecord } from './space-index.js'
import { isWellKnownSpaceType } from './well-known.js'

type Tx = Transaction<HostDatabaseSchema>

/** A space's name and access record as a call gives them, unchecked. */
interface SpaceSettings {
  name: string
  readableBy: string[]
  credentialScopes: { role: string; scopes: string[] }[]
}

/**
 * Makes the space at `address` (from newSpaceAddress) with its access record and its
 * record in the group's space index (`space.created`). A space of the same type and
 * skey exists already: `InvalidRequest` (callers read the index first, spec section 4).
 */
export async function createSpace(tx: Tx, address: { uri: string; groupDid: string; type: string; skey: string }, settings: SpaceSettings): Promise<void> {
  const { uri, groupDid } = address
  if (await findSpace(tx, uri)) throw refuse('InvalidRequest', `The group already has the space ${uri}; read the space index before creating one`)
  await requireRoomForSpace(tx, groupDid)
  const now = new Date().toISOString()
  const space: Space = {
    ...address,
    name: checkName(settings.name),
    readableBy: await checkReadableBy(tx, groupDid, settings.readableBy),
    credentialScopes: await checkCredentialScopes(tx, groupDid, settings.credentialScopes),
    createdAt: now,
    updatedAt: now,
  }
  await tx
    .insertInto('space')
    .values({ ...space, readableBy: JSON.stringify(space.readableBy), credentialScopes: JSON.stringify(space.credentialScopes) })
    .execute()
  await putIndexRecord(tx, space, now)
  await recordChange(tx, groupDid, 'space.created', uri)
}

/**
 * Changes a space's name or access record; fields left out stay, and the index record
 * follows (`space.updated`). The well-known spaces cannot be changed (`WellKnownSpace`).
 */
export async function updateSpace(tx: Tx, address: { uri: string; type: string }, settings: Partial<SpaceSettings>): Promise<void> {
  if (isWellKnownSpaceType(address.type)) throw refuse('WellKnownSpace', `The ${address.type} space is one of the group's well-known spaces, which cannot be changed`)
  const space = await loadSpace(tx, address.uri)
  const now = new Date().toISOString()
  const { name, readableBy, credentialScopes } = settings
  const next: Space = {
    ...space,
    name: name === undefined ? space.name : checkName(name),
    readableBy: readableBy === undefined ? space.readableBy : await checkReadableBy(tx, space.groupDid, readableBy),
    credentialScopes: credentialScopes === undefined ? space.credentialScopes : await checkCredentialScopes(tx, space.groupDid, credentialScopes),
    updatedAt: now,
  }
  await tx
    .updateTable('space')
    .set({ name: next.name, readableBy: JSON.stringify(next.readableBy), credentialScopes: JSON.stringify(next.credentialScopes satisfies CredentialScope[]), updatedAt: now })
    .where('uri', '=', space.uri)
    .execute()
  await putIndexRecord(tx, next, now)
  await recordChange(tx, space.groupDid, 'space.updated', space.uri)
}

/**
 * Deletes a space: its index record, every record and image the host keeps in it, and the space
 * itself (`space.deleted`). The well-known spaces cannot be deleted (`WellKnownSpace`).
 */
export async function deleteSpace(tx: Tx, address: { uri: string; type: string }): Promise<void> {
  if (isWellKnownSpaceType(address.type)) throw refuse('WellKnownSpace', `The ${address.type} space is one of the group's well-known spaces, which cannot be deleted`)
  const space = await loadSpace(tx, address.uri)
  await deleteIndexRecord(tx, space)
  await tx.deleteFrom('record').where('space', '=', space.uri).execute()
  await tx.deleteFrom('record_blob').where('space', '=', space.uri).execute()
  await tx.deleteFrom('blob_takedown').where('space', '=', space.uri).execute()
  await tx.deleteFrom('space_blob').where('space', '=', space.uri).execute()
  await tx.deleteFrom('space').where('uri', '=', space.uri).execute()
  await recordChange(tx, space.groupDid, 'space.deleted', space.uri)
}

/** Spaces one group may have, the well-known two included: a space per channel or project, with room. */
export const MAX_SPACES_PER_GROUP = 200

/**
 * Each space is a row, an index record, its own bounds of records and images (records.ts,
 * space-blobs.ts), and anyone may make groups, so a group's spaces are bounded too: past
 * it a 429 naming no time, lifted only by deleting a space. Under the group's lock (the
 * caller's groupTransaction), so two creations at once cannot both take the last place.
 */
async function requireRoomForSpace(tx: Tx, groupDid: string): Promise<void> {
  requireGroupLock(tx, groupDid)
  const { n } = await tx.selectFrom('space').select((eb) => eb.fn.countAll<number>().as('n')).where('groupDid', '=', groupDid).executeTakeFirstOrThrow()
  if (Number(n) >= MAX_SPACES_PER_GROUP) {
    throw capReached(
      MAX_SPACES_PER_GROUP,
      Number(n),
      `This group has ${MAX_SPACES_PER_GROUP} spaces, the most this host keeps for one group; delete one before creating another`,
    )
  }
}
