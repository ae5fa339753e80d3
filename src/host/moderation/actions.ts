import type { Transaction } from 'kysely'
import type { HostDatabaseSchema, SubjectStatus } from '../db/schema.js'
import { refuse } from '../errors.js'
import { recordChange } from '../changes.js'
import { requireAction, type Viewer } from '../groups/access.js'
import { banFromGroup, ejectMemberAs } from '../membership/eject.js'
import { hideImagesOf, showImagesOf, spaceOfRecord } from './takedowns.js'
import { afterRsvpSynced, isRsvpCollection } from '../spaces/standing.js'
import { parseSpaceRecordAddress } from '../../shared/space-address.js'
import { MODERATION_EVENTS, STATUS_AFTER, type ModerationEvent } from '../../shared/moderation-events.js'

type Tx = Transaction<HostDatabaseSchema>

/** The acts a moderator may emit: the one list the app shares (src/shared/moderation-events.ts). */
export type ModerationAction = ModerationEvent

export function parseAction(event: string): ModerationAction {
  if (!(MODERATION_EVENTS as readonly string[]).includes(event)) {
    throw refuse('InvalidRequest', `Unknown moderation event "${event}": use one of ${MODERATION_EVENTS.join(', ')}`)
  }
  return event as ModerationAction
}

/** The status an action leaves the subject in; undefined keeps it. A takedown is a decision made. */
export const statusAfter = (action: ModerationAction): SubjectStatus | undefined => STATUS_AFTER[action]

/**
 * What a takedown or its reversal does beyond the history. A record in one of the
 * group's spaces: it stops (or starts again) being served to members, and the change log
 * says so under the record's address, so members' apps drop (or fetch) it. An account:
 * ejected if still a member and banned; reversed, the ban the takedown set is lifted
 * (they may ask to join again; membership is not handed back), while a ban someone set
 * before the takedown stands. Returns whether a ban was set.
 */
export async function applyTakedown(tx: Tx, groupDid: string, viewer: Viewer, key: string, action: 'takedown' | 'reverseTakedown', note: string | undefined): Promise<boolean> {
  const isAccount = key.startsWith('did:')
  if (isAccount) {
    requireAction(viewer, 'eject')
  } else if (!spaceOfRecord(groupDid, key)) {
    throw refuse('InvalidRequest', "Only accounts and records in this group's spaces can be taken down")
  }
  const existing = await tx
    .selectFrom('takedown')
    .select(['createdAt', 'createdBy'])
    .where('groupDid', '=', groupDid)
    .where('subjectKey', '=', key)
    .executeTakeFirst()

  if (action === 'takedown') {
    if (existing) throw refuse('InvalidRequest', 'That is already taken down')
    // The ban an account takedown makes carries the takedown's own time and author, so
    // its reversal lifts that ban and no other.
    const at = new Date().toISOString()
    await tx.insertInto('takedown').values({ groupDid, subjectKey: key, createdBy: viewer.did, createdAt: at }).execute()
    if (!isAccount) {
      await recordChange(tx, groupDid, 'record.takenDown', key)
      await hideImagesOf(tx, key)
      await placesAfterTakedown(tx, groupDid, key)
      return false
    }
    const member = await tx.selectFrom('member').select('did').where('groupDid', '=', groupDid).where('did', '=', key).executeTakeFirst()
    if (member) await ejectMemberAs(tx, groupDid, viewer, key)
    return banFromGroup(tx, groupDid, key, note ?? null, viewer.did, at)
  }

  if (!existing) throw refuse('InvalidRequest', 'That is not taken down')
  await tx.deleteFrom('takedown').where('groupDid', '=', groupDid).where('subjectKey', '=', key).execute()
  if (!isAccount) {
    await recordChange(tx, groupDid, 'record.restored', key)
    await showImagesOf(tx, key)
    await placesAfterTakedown(tx, groupDid, key)
    return false
  }
  const lifted = await tx
    .deleteFrom('ban')
    .where('groupDid', '=', groupDid)
    .where('did', '=', key)
    .where('createdAt', '=', existing.createdAt)
    .where('createdBy', '=', existing.createdBy)
    .executeTakeFirst()
  if (Number(lifted.numDeletedRows) > 0) await recordChange(tx, groupDid, 'ban.lifted', key)
  return false
}

/** A member's RSVP taken down (or restored) gives up (or asks again for) its place at the event. */
async function placesAfterTakedown(tx: Tx, groupDid: string, key: string): Promise<void> {
  const record = parseSpaceRecordAddress(key)
  if (record && record.repo !== groupDid && isRsvpCollection(record.collection)) await afterRsvpSynced(tx, groupDid, record.space, record.repo)
}
