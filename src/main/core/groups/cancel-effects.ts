import type { ActionKind, Tx } from '../actions/action-spec.js'
import { restorePrior } from '../cache/items.js'

/**
 * How a cancelled action's cached effect is taken back, by kind:
 * - unmark: it only marked a row pending (a decided request, a removed member, a
 *   deleted event): the row is as the host last said, so the mark goes and it shows again;
 * - remove: it wrote a row the host has never seen (a new event, space, own request): it goes;
 * - reread: it changed a row in place (roles, an edit, an RSVP, an invite that may have
 *   replaced one): the row is put back as it was (kept by putItem), at once and without
 *   the host; where that cannot be done (a later action changed the row on top), the row
 *   stays marked pending and the group is read whole at its next sync.
 * - none: it had no cached effect.
 */
const UNDO: Record<ActionKind, 'unmark' | 'remove' | 'reread' | 'none'> = {
  'joinRequest.decide': 'unmark',
  'invite.create': 'reread',
  'invite.revoke': 'unmark',
  'member.grantRole': 'reread',
  'member.revokeRole': 'reread',
  'member.eject': 'unmark',
  'event.create': 'remove',
  'event.update': 'reread',
  'event.delete': 'unmark',
  'event.rsvp': 'reread',
  'membership.accept': 'none',
  'membership.leave': 'none',
  'membership.request': 'remove',
  'membership.cancelRequest': 'unmark',
  'space.create': 'remove',
  'space.update': 'reread',
  'space.delete': 'unmark',
  'subject.update': 'reread',
  'subject.event': 'reread',
  'report.create': 'none',
  'group.configure': 'none',
  'role.put': 'none',
  'role.delete': 'none',
  'post.create': 'none',
  'post.pin': 'none',
  'event.image': 'reread',
  'attendance.checkIn': 'remove',
  'attendance.undo': 'unmark',
  'event.capacity': 'reread',
  'event.standing': 'reread',
}

/** Takes back the cached effect of the cancelled action `outboxId` (see UNDO). */
export async function undoCancelled(tx: Tx, groupDid: string, kind: ActionKind, outboxId: number): Promise<void> {
  const how = UNDO[kind]
  if (how === 'unmark') await tx.updateTable('item').set({ pendingAction: null }).where('groupDid', '=', groupDid).where('pendingAction', '=', outboxId).execute()
  else if (how === 'remove') await tx.deleteFrom('item').where('groupDid', '=', groupDid).where('pendingAction', '=', outboxId).execute()
  else if (how === 'reread' && !(await restorePrior(tx, groupDid, outboxId))) await tx.updateTable('group_row').set({ changeCursor: null }).where('did', '=', groupDid).execute()
}
