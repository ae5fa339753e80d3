import type { ActionHandler } from '../outbox/outbox.js'
import { parseStored } from '../outbox/queued-payloads.js'
import type { AccountRuntime } from '../session/account-runtime.js'
import type { ActionKind, ActionPayloads, ActionSpec, RequestedAction, Tx } from '../actions/action-spec.js'
import { ACTIONS, isActionKind, payloadSchema } from '../actions/registry.js'
import { undoCancelled } from './cancel-effects.js'

export type { ActionKind, ActionPayloads, EventFields, RequestedAction } from '../actions/action-spec.js'
export { ACTIONS, isActionKind } from '../actions/registry.js'

/**
 * The registry's actions as the outbox takes them: queued with their label and cached
 * effect, re-applied over a refresh, sent through their spec. Each kind's spec is in its
 * domain folder (actions/registry.ts joins them).
 */

/** Who or what a queued action is about (a member, an invitee, a report's subject), if anyone. */
export function actionTarget(payload: unknown): string | null {
  const p = (payload ?? {}) as { did?: unknown; invitee?: unknown; key?: unknown }
  const target = p.did ?? p.invitee ?? p.key
  return typeof target === 'string' ? target : null
}

/**
 * The contract's action as queued by `accountDid`: kind and payload apart, with what its
 * spec chooses now (`chooseWhenQueued`: a new record's key, who takes a subject).
 */
export function queuedAction(action: RequestedAction, accountDid: string): { kind: ActionKind; payload: ActionPayloads[ActionKind] } {
  const { kind, ...requested } = action
  return { kind, payload: withChosen(kind, requested, accountDid) }
}
function withChosen<K extends ActionKind>(kind: K, requested: object, accountDid: string): ActionPayloads[K] {
  // One cast where the kind and its payload part ways (the union cannot say they match).
  const spec = ACTIONS[kind] as { chooseWhenQueued?: (r: object, ctx: { accountDid: string }) => object }
  return { ...requested, ...spec.chooseWhenQueued?.(requested, { accountDid }) } as ActionPayloads[K]
}

/**
 * One action ready for the outbox: its payload, label and cached effect (the outbox stores the payload as JSON).
 * The stored label names people by DID (for the log); the window is shown it said again with names (people/name-labels.ts).
 */
export function prepareAction<K extends ActionKind>(groupDid: string, kind: K, payload: ActionPayloads[K]) {
  const spec: ActionSpec<K> = ACTIONS[kind]
  return { groupDid, kind, payload, label: spec.label(payload, (did) => did), applyToCache: (tx: Tx, outboxId: number) => spec.applyToCache(tx, groupDid, payload, outboxId) }
}

/**
 * The payload of a row the outbox stored, once parsed with its kind's schema
 * (outbox/queued-payloads.ts). The one place a stored payload is typed again.
 */
export const storedPayload = <K extends ActionKind>(_kind: K, payload: unknown) => payload as ActionPayloads[K]

/** A still-queued action's cached effect, applied again over a refresh (not one this version cannot read: the outbox fails it). */
export async function reapplyQueued(tx: Tx, groupDid: string, row: { id: number; kind: string; payload: string }): Promise<void> {
  if (!isActionKind(row.kind)) return
  const read = parseStored(payloadSchema(row.kind), row.payload)
  if (read.ok) await reapply(tx, groupDid, row.kind, row.id, read.payload)
}
const reapply = <K extends ActionKind>(tx: Tx, groupDid: string, kind: K, id: number, payload: unknown) =>
  ACTIONS[kind].applyToCache(tx, groupDid, storedPayload(kind, payload), id)

function handlerFor<K extends ActionKind>(rt: AccountRuntime, kind: K): ActionHandler {
  const spec: ActionSpec<K> = ACTIONS[kind]
  const alreadyApplied = spec.alreadyApplied
  return {
    schema: payloadSchema(kind),
    send: (groupDid, payload, key) => spec.send(rt, groupDid, storedPayload(kind, payload), key),
    conflicts: spec.conflicts as Record<string, string>,
    alreadyApplied: alreadyApplied ? (groupDid, payload) => alreadyApplied(rt, groupDid, storedPayload(kind, payload)) : undefined,
    undoCache: (tx, groupDid, _payload, id) => undoCancelled(tx, groupDid, spec.undo, id),
  }
}

/** The outbox's handlers for one account, built from the registry. */
export function actionHandlers(rt: AccountRuntime): Record<string, ActionHandler> {
  return Object.fromEntries(Object.keys(ACTIONS).filter(isActionKind).map((kind) => [kind, handlerFor(rt, kind)]))
}
