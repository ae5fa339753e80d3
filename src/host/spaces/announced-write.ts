import type { Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { refuse } from '../errors.js'
import { recordChange } from '../changes.js'
import { viewerOf } from '../groups/access.js'
import { syncMemberRecord } from './member-records.js'
import { assertWithinMemberBounds, whyNotKept } from './member-record-bounds.js'
import type { PreparedRecord, RecordKey } from './records.js'
import { loadSpace } from './space.js'

const ACCEPTANCE = 'example.groups.acceptance'

/** A write announced by someone who is not a member (spec section 3: their PDS stored it anyway). */
export const notAMemberWriter = () => refuse('Forbidden', 'not a member: this group’s spaces take writes from its members only')

/**
 * Makes the host's copy of a member's record what their PDS holds (`notifyWrite`):
 * `record` as read and checked from it, none when it is gone. Membership and roles are
 * checked again here, in the transaction: they may have changed while the host read.
 * An acceptance (`example.groups.acceptance`, rkey `self`) marks the member accepted
 * while it exists.
 */
export async function settleAnnouncedWrite(tx: Transaction<HostDatabaseSchema>, groupDid: string, writer: string, key: RecordKey, record: PreparedRecord | undefined): Promise<void> {
  const now = new Date().toISOString()
  const member = await tx.selectFrom('member').select('acceptedAt').where('groupDid', '=', groupDid).where('did', '=', writer).executeTakeFirst()
  if (!member) throw notAMemberWriter()
  if (record) {
    const why = whyNotKept(await loadSpace(tx, key.space), await viewerOf(tx, groupDid, writer))
    if (why) throw refuse('Forbidden', why)
    await assertWithinMemberBounds(tx, key, record)
  }
  const change = await syncMemberRecord(tx, groupDid, key, record, now)
  if (key.collection !== ACCEPTANCE || key.rkey !== 'self' || !change) return
  // acceptedAt is when the host first saw the acceptance as it is now; the change
  // log records only the moments the member became accepted or stopped being so.
  const accepted = record !== undefined
  await tx.updateTable('member').set({ acceptedAt: accepted ? now : null }).where('groupDid', '=', groupDid).where('did', '=', writer).execute()
  if (accepted !== (member.acceptedAt !== null)) {
    await recordChange(tx, groupDid, accepted ? 'member.accepted' : 'member.acceptanceWithdrawn', writer)
  }
}
