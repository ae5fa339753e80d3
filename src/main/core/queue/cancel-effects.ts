import type { Tx, UndoKind } from '../actions/action-spec.js'
import { restorePrior } from '../cache/items.js'

/** Takes back the cached effect of the cancelled action `outboxId`, as its spec's `undo` says (actions/action-spec.ts). */
export async function undoCancelled(tx: Tx, groupDid: string, how: UndoKind, outboxId: number): Promise<void> {
  if (how === 'unmark') await tx.updateTable('item').set({ pendingAction: null }).where('groupDid', '=', groupDid).where('pendingAction', '=', outboxId).execute()
  else if (how === 'remove') await tx.deleteFrom('item').where('groupDid', '=', groupDid).where('pendingAction', '=', outboxId).execute()
  else if (how === 'reread' && !(await restorePrior(tx, groupDid, outboxId))) await tx.updateTable('group_row').set({ changeCursor: null }).where('did', '=', groupDid).execute()
}
