import type { AccountRuntime } from '../session/account-runtime.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import type { ActionKind, Change, ChangeKind, ConfirmedChange, Tx, WriteAnswer } from '../actions/action-spec.js'
import { specOf } from '../actions/registry.js'
import { storedPayload } from '../queue/organizer-actions.js'
import type { PartialRead } from './refresh-group.js'
import type { ListName } from '../cache/list-names.js'
import { listsNamed } from './change-lists.js'

export type { Change } from '../actions/action-spec.js'

/** An action this app sent and the host took, with what the host answered. */
export interface SentAction {
  id: number
  kind: ActionKind
  payload: Record<string, unknown>
  answer: WriteAnswer
}

/** One of our changes, confirmed by the log (or by the write's answer), with the action that made it. */
export interface OwnChange {
  change: ConfirmedChange
  action: SentAction
}

/** Pages of the change log read in one catch-up before giving up and reading the group whole. */
const MAX_CHANGE_PAGES = 10
const PAGE = 100

/**
 * The change log from `cursor` to its end: one request when nothing happened. Null when
 * the host no longer knows the cursor (expired, log trimmed, a restored host) or there
 * is more than a catch-up is worth: then the group is read whole.
 */
export async function readChanges(rt: AccountRuntime, groupDid: string, cursor: string): Promise<{ changes: Change[]; cursor: string } | null> {
  const host = await rt.hostOf(groupDid)
  const changes: Change[] = []
  for (let i = 0; i < MAX_CHANGE_PAGES; i++) {
    let res: { changes: Change[]; cursor: string }
    try {
      res = await host.query('example.groups.listChanges', { group: groupDid, limit: PAGE, cursor })
    } catch (err) {
      // A lost cursor, or no longer allowed to read the log (ejected, left): read the group whole.
      if (err instanceof XrpcCallError && (err.error === 'InvalidRequest' || err.status === 403)) return null
      throw err
    }
    changes.push(...res.changes)
    cursor = res.cursor
    if (res.changes.length < PAGE) return { changes, cursor }
  }
  return null
}

const spec = (a: SentAction) => specOf(a.kind)
const makes = (a: SentAction, kind: string) => (spec(a).changes as readonly string[]).includes(kind)

/** The list an action's cached effect lives in (read again when the host refused it). */
export const listOf = (kind: ActionKind): ListName | null => specOf(kind).list

/**
 * What identifies the things an action touched, as the change log names them (read
 * from the cache before they are settled away).
 */
export async function identifiersOf(rt: AccountRuntime, groupDid: string, a: SentAction): Promise<string[]> {
  const ids = await spec(a).identifiers(storedPayload(a.kind, a.payload), { cache: rt.cache, groupDid, me: rt.did, answer: a.answer })
  return ids.filter((id) => id.length > 0)
}

/** Whether a change is one of our own sent actions' (its effect is already in the cache). */
function ownChange(change: Change, sent: SentAction[], ids: Map<number, string[]>): SentAction | undefined {
  return sent.find((a) => {
    if (!makes(a, change.kind)) return false
    // The host answered where the call's last change went.
    if (a.answer.seq === change.seq) return true
    const subject = change.subject ?? ''
    return (ids.get(a.id) ?? []).some((id) => subject === id || subject.endsWith(`/${id}`))
  })
}

/**
 * Sorts the changes since the last sync into our own (whose effect is applied from what
 * we sent and what the log says) and everyone else's (whose lists are read again).
 * Returns the partial read still needed, or null when nothing but our own changes came.
 */
export function planCatchUp(changes: Change[], sent: SentAction[], ids: Map<number, string[]>, me: string, cursor: string): { read: PartialRead | 'everything' | null; own: OwnChange[] } {
  const lists = new Set<ListName>()
  let group = false
  const own: OwnChange[] = []
  // What an action made that only the log names (a new invite's address, when the
  // answer did not say): one such change per action sent, matched in order.
  const namedByLog = new Map<string, SentAction[]>()
  for (const a of sent) {
    const kind = spec(a).namedByLog
    if (kind && !a.answer.uri) namedByLog.set(kind, [...(namedByLog.get(kind) ?? []), a])
  }
  for (const change of changes) {
    const action = ownChange(change, sent, ids) ?? namedByLog.get(change.kind)?.shift()
    if (action) {
      own.push({ change: { ...change, kind: change.kind as ChangeKind }, action })
      if (!spec(action).rereads) continue
    }
    const named = listsNamed(change, me)
    if (named === 'everything') return { read: 'everything', own }
    for (const l of named.lists) lists.add(l)
    group ||= named.group
  }
  return { read: lists.size || group ? { lists, group, cursor } : null, own }
}

/** Whether an action's answer settles it, or its changes must be read back from the log. */
const settlesFromAnswer = (a: SentAction) => a.answer.seq !== undefined && spec(a).changes.length > 0 && !spec(a).readBack?.(storedPayload(a.kind, a.payload))

/**
 * Our own changes as the writes' answers tell them, when every action sent was answered
 * with its place in the change log: then the log need not be read to settle them.
 * Null when one was not (an older host, a write to the person's own server) or made
 * changes that are read back like anyone else's.
 */
export function ownFromAnswers(sent: SentAction[], groupDid: string, now: string): OwnChange[] | null {
  if (!sent.every(settlesFromAnswer)) return null
  return sent.flatMap((action) => (spec(action).answered?.(storedPayload(action.kind, action.payload), action.answer, { groupDid, now }) ?? []).map((change) => ({ change, action })))
}

/**
 * Applies what the host confirmed of our own actions to the cache: rows they marked to
 * go away go, rows they changed stop being pending, and what only the host knew (an
 * admitted member's joining time, a new invite's or event's address) is taken from the
 * change, so no list is read again for our own work.
 */
export async function settleOwn(tx: Tx, groupDid: string, sent: SentAction[], own: OwnChange[]): Promise<void> {
  for (const { change, action } of own) await spec(action).settle?.(tx, groupDid, storedPayload(action.kind, action.payload), change, action.id)
  for (const action of sent) {
    const rows = tx.deleteFrom('item').where('groupDid', '=', groupDid).where('pendingAction', '=', action.id)
    if (spec(action).confirmed === 'remove') await rows.execute()
    else await tx.updateTable('item').set({ pendingAction: null, prior: null }).where('groupDid', '=', groupDid).where('pendingAction', '=', action.id).execute()
  }
}
