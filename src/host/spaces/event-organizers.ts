import type { Kysely, Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { refuse } from '../errors.js'
import { requireGroupLock } from '../db/group-lock.js'
import { loadGroup, viewerOf, type GroupLookup } from '../groups/access.js'
import type { GroupTable } from '../db/schema.js'
import { takenDownAmong } from '../moderation/takedowns.js'
import { formatSpaceAddress, parseSpaceAddress } from '../../shared/space-address.js'
import { recordUri } from './records.js'
import { isServed, recordVisibility, type RecordReader } from './record-visibility.js'
import { allowsCollection, loadSpace, writableCollections, type Space } from './space.js'

const EVENT = 'community.lexicon.calendar.event'
type Db = Kysely<HostDatabaseSchema> | Transaction<HostDatabaseSchema>

/**
 * The group a capacity or standing call names, looked up before its transaction (a group
 * this host does not keep may take a DID look-up, which must not run under the lock).
 */
export async function eventGroup(ctx: GroupLookup, spaceParam: string): Promise<{ group: GroupTable; spaceUri: string }> {
  const address = parseSpaceAddress(spaceParam)
  if (!address) throw refuse('InvalidRequest', 'space must be a space address: at://<group_did>/space/<space_type>/<skey>')
  return { group: await loadGroup(ctx, address.authority), spaceUri: formatSpaceAddress(address) }
}

/**
 * The space, if the caller may organize its events: a member whose roles may write
 * `community.lexicon.calendar.event` there (its `credentialScopes` name the collection or
 * `*`), as a group credential to write the event would need. Others are refused with
 * `Forbidden`. Checked under the group's lock, in the transaction that then acts, so a
 * role taken away meanwhile is taken away for this call too.
 */
export async function organizerSpace(tx: Transaction<HostDatabaseSchema>, groupDid: string, spaceUri: string, caller: string): Promise<Space> {
  requireGroupLock(tx, groupDid)
  const viewer = await viewerOf(tx, groupDid, caller)
  if (!viewer.isMember) throw refuse('Forbidden', 'Only members of the group can organize its events')
  const space = await loadSpace(tx, spaceUri)
  if (!allowsCollection(writableCollections(space, viewer), EVENT)) {
    throw refuse('Forbidden', 'Your roles may not write events in this space, so they may not set places at them either')
  }
  return space
}

/**
 * The group's event `rkey` in the space: places are kept and shown only for an event
 * the host keeps (`RecordNotFound` otherwise, so no caller can make the host keep a
 * capacity for an event that does not exist). Given a `reader`, one a moderator took
 * down is gone too unless the reader reads reports (spaces/record-visibility.ts).
 */
export async function requireEvent(db: Db, groupDid: string, space: string, rkey: string, reader?: RecordReader): Promise<void> {
  const uri = recordUri({ space, repo: groupDid, collection: EVENT, rkey })
  const row = await db.selectFrom('record').select('uri').where('uri', '=', uri).executeTakeFirst()
  // The one rule every read path serves records by (record-visibility.ts).
  const hidden = row && reader && !isServed(recordVisibility(reader, uri, (await takenDownAmong(db, groupDid, [uri])).has(uri)))
  if (!row || hidden) throw refuse('RecordNotFound', `There is no event ${rkey} in this space`)
}
