import type { Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { prepareRecord, removeRecord, storeRecord, type RecordKey } from './records.js'
import type { Space } from './space.js'
import { formatSpaceAddress, spaceIndexKey } from '../../shared/space-address.js'

type Tx = Transaction<HostDatabaseSchema>

export const SPACE_INDEX_COLLECTION = 'example.groups.space'

export const membersSpaceUri = (groupDid: string) => formatSpaceAddress({ authority: groupDid, type: 'members', skey: 'self' })

/**
 * Where a space's index record lives: in the group's `members` space, in the group's
 * own repo, rkey `<type>:<skey>`. A space type has no `:` (it is a dotted name), so the
 * rkey names one space, and a caller can look a space up in the index by its key alone.
 */
export function indexRecordKey(space: Pick<Space, 'groupDid' | 'type' | 'skey'>): RecordKey {
  return {
    space: membersSpaceUri(space.groupDid),
    repo: space.groupDid,
    collection: SPACE_INDEX_COLLECTION,
    rkey: spaceIndexKey(space),
  }
}

/** Writes (or rewrites, after a change) the space's record in the group's space index. */
export async function putIndexRecord(tx: Tx, space: Space, now: string): Promise<void> {
  const key = indexRecordKey(space)
  const record = {
    $type: SPACE_INDEX_COLLECTION,
    type: space.type,
    skey: space.skey,
    name: space.name,
    readableBy: space.readableBy,
    credentialScopes: space.credentialScopes,
    createdAt: space.createdAt,
  }
  await storeRecord(tx, key, await prepareRecord(key.collection, key.rkey, record), { now })
}

export async function deleteIndexRecord(tx: Tx, space: Space): Promise<void> {
  await removeRecord(tx, indexRecordKey(space))
}
