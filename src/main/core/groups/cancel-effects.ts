import type { ActionKind, Tx } from '../actions/action-spec.js'
import { putItem, readItem } from '../cache/items.js'

/**
 * How a cancelled action's cached effect is taken back, by kind:
 * - unmark: it only marked a row pending (a decided request, a removed member, a
 *   deleted event): the row is as the host last said, so the mark goes and it shows again;
 * - remove: it wrote a row the host has never seen (a new event, space, own request): it goes;
 * - reread: it changed a row in place (roles, an edit, an RSVP, an invite that may have
 *   replaced one): what it was is not kept, so the row stays marked pending and the
 *   group is read whole at its next sync, which shows it as the host has it.
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
}

/**
 * Takes back the cached effect of the cancelled action `outboxId` (see UNDO). A role taken
 * away (the Undo of a chip's ×) is given back exactly when nothing else changed the member
 * since: the window shows them as they were at once, not only after the next sync.
 */
export async function undoCancelled(tx: Tx, groupDid: string, kind: ActionKind, outboxId: number, payload?: unknown): Promise<void> {
  if (kind === 'member.revokeRole' && (await roleGivenBack(tx, groupDid, outboxId, payload))) return
  const how = UNDO[kind]
  if (how === 'unmark') await tx.updateTable('item').set({ pendingAction: null }).where('groupDid', '=', groupDid).where('pendingAction', '=', outboxId).execute()
  else if (how === 'remove') await tx.deleteFrom('item').where('groupDid', '=', groupDid).where('pendingAction', '=', outboxId).execute()
  else if (how === 'reread') await tx.updateTable('group_row').set({ changeCursor: null }).where('did', '=', groupDid).execute()
}

/** The role `payload` took, put back on a member still marked by `outboxId` alone; false when that cannot be said. */
async function roleGivenBack(tx: Tx, groupDid: string, outboxId: number, payload: unknown): Promise<boolean> {
  const { did, role } = (payload ?? {}) as { did?: unknown; role?: unknown }
  if (typeof did !== 'string' || typeof role !== 'string') return false
  const row = await tx.selectFrom('item').select('pendingAction').where('groupDid', '=', groupDid).where('kind', '=', 'member').where('key', '=', did).executeTakeFirst()
  if (row?.pendingAction !== outboxId) return false
  const m = await readItem<{ roles: string[] }>(tx, groupDid, 'member', did)
  if (!m) return false
  await putItem(tx, groupDid, 'member', did, { ...m, roles: [...new Set([...m.roles, role])].sort() }, null)
  return true
}
