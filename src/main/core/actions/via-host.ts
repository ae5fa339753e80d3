import type { AccountRuntime } from '../session/account-runtime.js'
import type { ProcedureInput, ProcedureNsid } from '../xrpc/methods.js'

/**
 * An action sent as a host method with service auth; the body is typed by the method's
 * lexicon. `key` is the queued action's idempotency key, for methods that take one.
 * (Its own module: the action tables in organizer-actions, join-actions and
 * moderation-actions all use it, and organizer-actions imports the other two.)
 */
export const viaHost =
  <M extends ProcedureNsid, P>(method: M, body: (groupDid: string, p: P, key: string) => ProcedureInput<M>) =>
  async (rt: AccountRuntime, groupDid: string, p: P, key: string): Promise<void> => {
    await (await rt.hostOf(groupDid)).procedure(method, body(groupDid, p, key))
  }
