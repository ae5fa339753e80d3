import type { ActionDeps } from './action-spec.js'
import type { Output, ProcedureInput, ProcedureNsid } from '../xrpc/methods.js'

/**
 * An action sent as a host method with service auth; the body is typed by the method's
 * lexicon, and the host's answer is handed back (what the write made: see writeAnswer).
 * `key` is the queued action's idempotency key, for methods that take one.
 */
export const viaHost =
  <M extends ProcedureNsid, P>(method: M, body: (groupDid: string, p: P, key: string) => ProcedureInput<M>) =>
  async (rt: ActionDeps, groupDid: string, p: P, key: string): Promise<Output<M>> =>
    (await rt.hostOf(groupDid)).procedure(method, body(groupDid, p, key))
