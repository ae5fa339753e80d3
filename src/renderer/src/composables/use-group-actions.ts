import { ref } from 'vue'
import type { GroupSummary } from '../../../shared/ipc/views'
import { ConveneError } from '../../../shared/ipc/envelope'
import { useGroupsStore, type GroupAction } from '../stores/groups'
import { useToastsStore } from '../stores/toasts'

/** How long a one-key or one-click decision is held back before it is sent: its Undo window. */
export const UNDO_HOLD_MS = 6_000

/** What an undoable action says: done, undone, and, once it was sent, what the person can do instead. */
export interface UndoWords {
  /** "Denied @bob’s request" */
  done: string
  /** "@bob’s request is back: nothing was sent" */
  undone: string
  /** Once sent, plain words ("@bob’s request was denied") and, where it is safe, the inverse to queue. */
  sent: { text: string; instead?: string; inverse?: { label: string; action: GroupAction; done: string } }
}

/**
 * Organizer actions on one group. What each did, and why one could not be done, is
 * said in the window's toasts (stores/toasts.ts); a form that shows its errors beside
 * its fields asks `{ inline: true }` and reads `error`. Each returns whether it was queued.
 */
export function useGroupActions(group: () => GroupSummary) {
  const store = useGroupsStore()
  const toasts = useToastsStore()
  const error = ref<string | null>(null)

  async function run(fn: () => Promise<unknown>, opts: { inline?: boolean; done?: string } = {}): Promise<boolean> {
    error.value = null
    try {
      await fn()
      if (opts.done) toasts.show(`${opts.done}.`)
      return true
    } catch (err) {
      if (opts.inline) error.value = (err as Error).message
      else toasts.fail((err as Error).message)
      return false
    }
  }
  /** `queued` hears the action's outbox id, for a view that reads the host again once that item has landed. */
  const act = (action: GroupAction, opts?: { inline?: boolean; done?: string; queued?: (outboxId: number) => void }) =>
    run(async () => {
      const outboxId = await store.act(group().accountDid, group().did, action)
      opts?.queued?.(outboxId)
    }, opts)
  const actMany = (actions: GroupAction[], opts?: { inline?: boolean; done?: string }) => run(() => store.actMany(group().accountDid, group().did, actions), opts)
  /**
   * A bulk action: queued all or none, held back `hold` ms when asked (its Undo is the
   * outbox's, one row at a time, or the bulk results' "Undo all"). Answers the outbox
   * ids in order, or null when nothing was queued (the toast says why).
   */
  async function actBulk(actions: GroupAction[], opts: { hold?: number } = {}): Promise<number[] | null> {
    try {
      return await store.actMany(group().accountDid, group().did, actions, opts.hold)
    } catch (err) {
      toasts.fail((err as Error).message)
      return null
    }
  }

  /**
   * A one-key or one-click decision: held back UNDO_HOLD_MS in the core (so closing the
   * window loses nothing), with Undo offered meanwhile (a button, and Ctrl/Cmd+Z).
   * Undo cancels it before it is sent; after, it says so plainly and offers the inverse
   * where one is safe.
   */
  async function actUndoable(action: GroupAction, words: UndoWords): Promise<boolean> {
    const { accountDid, did: groupDid } = group()
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null
    let outboxId: number
    try {
      outboxId = await store.act(accountDid, groupDid, action, UNDO_HOLD_MS)
    } catch (err) {
      toasts.fail((err as Error).message)
      return false
    }
    let undoing = false
    const shown = toasts.show(`${words.done}.`, { ms: UNDO_HOLD_MS, button: { label: 'Undo', undo: true, run: undo } })
    async function undo() {
      if (undoing) return
      undoing = true
      const inToast = Boolean(document.activeElement?.closest('[data-toasts]'))
      try {
        await store.cancelChange({ accountDid, id: outboxId })
        toasts.show(`Undone: ${words.undone}.`, { replaces: shown })
      } catch (err) {
        const code = err instanceof ConveneError ? err.code : ''
        if (code === 'AlreadySent' || code === 'AlreadySending') afterSent(code === 'AlreadySending')
        else if (code === 'OutboxItemNotFound') toasts.show('That was already cancelled: nothing was sent.', { replaces: shown })
        else toasts.fail((err as Error).message, shown)
      }
      // The Undo button is gone: focus goes back to where the person was working.
      if (inToast) (returnTo?.isConnected ? returnTo : document.getElementById('main'))?.focus()
    }
    function afterSent(sending: boolean) {
      const { text, instead, inverse } = words.sent
      const lead = sending ? `Too late to undo: it is being sent now, so ${text}.` : `Too late to undo: it was already sent, so ${text}.`
      toasts.show([lead, instead].filter(Boolean).join(' '), {
        replaces: shown,
        ...(inverse ? { button: { label: inverse.label, run: () => act(inverse.action, { done: inverse.done }) } } : {}),
      })
    }
    return true
  }
  return { error, run, act, actMany, actBulk, actUndoable }
}
