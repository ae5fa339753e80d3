import type { GroupSummary } from '../../../shared/ipc/views'
import type { GroupAction } from '../stores/groups'
import { useGroupsStore } from '../stores/groups'
import { useToastsStore } from '../stores/toasts'
import { UNDO_HOLD_MS, useGroupActions } from './use-group-actions'
import { useBulkResults } from './use-bulk-results'

/** One row of a bulk action: its key (to leave the selection), its name for people, and its action. */
export interface BulkItem {
  key: string
  name: string
  action: GroupAction
}

/** The most one call may queue (the contract's limit): a larger selection goes in turns. */
const BATCH = 10_000

/**
 * Acting once on many rows (issue 25): every row's action is queued in the outbox like
 * any action (one row each, all of a batch or none), so it waits out a host that is
 * down or a closed window and each row is sent, and confirmed, on its own; the outbox
 * row's idempotency key makes a replay after a lost answer count once. The results
 * (use-bulk-results.ts) then say per row what became of it. With `hold`, the whole
 * bulk is kept back for the Undo window and one Undo takes back every row not yet sent.
 */
export function useBulkAction(group: () => GroupSummary) {
  const store = useGroupsStore()
  const toasts = useToastsStore()
  const { actBulk } = useGroupActions(group)
  const results = useBulkResults(group)

  /**
   * Queues `items`; answers the keys queued (those leave the selection: after a failed
   * batch the rest stays chosen, so the person can try again). `done` words the toast.
   */
  async function act(verb: string, items: BulkItem[], opts: { done: string; hold?: boolean }): Promise<string[]> {
    const queued: { item: BulkItem; outboxId: number }[] = []
    for (let i = 0; i < items.length; i += BATCH) {
      const batch = items.slice(i, i + BATCH)
      const ids = await actBulk(
        batch.map((b) => b.action),
        opts.hold ? { hold: UNDO_HOLD_MS } : {},
      )
      if (!ids) break
      batch.forEach((item, n) => queued.push({ item, outboxId: ids[n]! }))
    }
    if (queued.length === 0) return []
    results.start(
      verb,
      queued.map(({ item, outboxId }) => ({ key: item.key, name: item.name, outboxId })),
    )
    const ids = queued.map((q) => q.outboxId)
    if (opts.hold) offerUndo(opts.done, ids)
    else toasts.show(`${opts.done}.`)
    return queued.map((q) => q.item.key)
  }

  /** The Undo of a held bulk: cancels each row still held; one already sent says so in its result. */
  function offerUndo(done: string, ids: number[]) {
    const { accountDid } = group()
    let undoing = false
    const shown = toasts.show(`${done}.`, {
      ms: UNDO_HOLD_MS,
      button: {
        label: 'Undo',
        undo: true,
        run: async () => {
          if (undoing) return
          undoing = true
          const taken: number[] = []
          let late = 0
          for (const id of ids) {
            try {
              await store.cancelChange({ accountDid, id })
              taken.push(id)
            } catch {
              // Already sent, being sent, or gone: its result says which.
              late++
            }
          }
          results.markUndone(taken)
          toasts.show(late === 0 ? `Undone: nothing was sent (${taken.length.toLocaleString()}).` : `Undone ${taken.length.toLocaleString()}; ${late.toLocaleString()} had already been sent.`, { replaces: shown })
        },
      },
    })
  }

  return { act, results }
}
