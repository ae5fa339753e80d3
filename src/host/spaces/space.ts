import type { Kysely } from 'kysely'
import type { HostDatabaseSchema, SpaceTable } from '../db/schema.js'
import { refuse } from '../errors.js'
import type { Viewer } from '../groups/access.js'
import { formatSpaceAddress, parseSpaceAddress, type SpaceAddress } from '../../shared/space-address.js'

type Db = Kysely<HostDatabaseSchema>

/** One `credentialScopes` item of a space's access record (spec section 2). */
export interface CredentialScope {
  role: string
  /** Collection NSIDs, or the single value `*` for every collection in the space. */
  scopes: string[]
}

/** A space with its access record decoded. */
export interface Space {
  uri: string
  groupDid: string
  type: string
  skey: string
  name: string
  readableBy: string[]
  credentialScopes: CredentialScope[]
  createdAt: string
  updatedAt: string
}

export const ALL_COLLECTIONS = '*'

/** A space as the host works with it; the row's record totals (migration 031) are the record writes' business (spaces/records.ts), never part of a view. */
export function spaceFromRow(row: Omit<SpaceTable, 'recordCount' | 'recordBytes'>): Space {
  return {
    uri: row.uri,
    groupDid: row.groupDid,
    type: row.type,
    skey: row.skey,
    name: row.name,
    readableBy: JSON.parse(row.readableBy) as string[],
    credentialScopes: JSON.parse(row.credentialScopes) as CredentialScope[],
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }
}

/**
 * The space a call about `groupDid` names. Its address must be well formed and belong
 * to that group: a space of another group is not this group's to configure or grant.
 */
export function groupSpaceAddress(groupDid: string, space: string): SpaceAddress & { uri: string } {
  const address = parseSpaceAddress(space)
  if (!address) throw refuse('InvalidRequest', 'space must be a space address: at://<group_did>/space/<space_type>/<skey>')
  if (address.authority !== groupDid) {
    throw refuse('InvalidRequest', `The space ${space} belongs to ${address.authority}, not to the group ${groupDid}`)
  }
  return { ...address, uri: formatSpaceAddress(address) }
}

export async function findSpace(db: Db, uri: string): Promise<Space | undefined> {
  const row = await db.selectFrom('space').selectAll().where('uri', '=', uri).executeTakeFirst()
  return row && spaceFromRow(row)
}

export async function loadSpace(db: Db, uri: string): Promise<Space> {
  const space = await findSpace(db, uri)
  if (!space) throw refuse('SpaceNotFound', `The group has no space ${uri}`)
  return space
}

/** A member reads a space when one of their roles is in its `readableBy`. */
export function canRead(space: Space, viewer: Viewer): boolean {
  return viewer.isMember && viewer.roles.some((role) => space.readableBy.includes(role))
}

/**
 * What a group credential may write in the space for this caller: the union of the
 * `scopes` of every `credentialScopes` item whose role the caller holds. `*` absorbs
 * the rest, so a grant is either `['*']` or a list of collections.
 */
export function writableCollections(space: Space, viewer: Viewer): string[] {
  if (!viewer.isMember) return []
  const granted = new Set(space.credentialScopes.filter((c) => viewer.roles.includes(c.role)).flatMap((c) => c.scopes))
  if (granted.has(ALL_COLLECTIONS)) return [ALL_COLLECTIONS]
  return [...granted].sort()
}

export const allowsCollection = (collections: string[], collection: string) =>
  collections.includes(ALL_COLLECTIONS) || collections.includes(collection)
