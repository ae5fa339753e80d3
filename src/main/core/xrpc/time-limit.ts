import { hostTimeoutMs } from '../network.js'
import { XrpcCallError } from './xrpc-error.js'
import { UserFacingError } from '../ipc/errors.js'

/** What a request that got no answer is called, by whose server it went to. */
export const HOST_SILENCE = { unreachable: 'HostUnreachable', notAnswering: 'HostNotAnswering' } as const
export const OWN_SERVER_SILENCE = { unreachable: 'ServerUnreachable', notAnswering: 'ServerNotAnswering' } as const

/**
 * Sends one request to a group host (or the person's own server) with a time limit
 * (network.ts): a server that takes the connection and never answers is "not answering",
 * one that cannot be reached is "unreachable"; both are transient (status 0), so the outbox keeps the change and backs
 * off, and a sync moves on. The caller's own signal, if any, still aborts it.
 */
export async function sendWithTimeLimit(
  method: string,
  init: RequestInit,
  send: (init: RequestInit) => Promise<Response>,
  ms: number = hostTimeoutMs(),
  silence: { unreachable: string; notAnswering: string } = HOST_SILENCE,
): Promise<Response> {
  const timeout = AbortSignal.timeout(ms)
  try {
    return await send({ ...init, signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout })
  } catch (err) {
    // Already said in plain words (a session that ended while refreshing): passed on as is.
    if (err instanceof UserFacingError) throw err
    if (timeout.aborted) throw new XrpcCallError(method, 0, silence.notAnswering, `no answer within ${ms} ms`)
    throw new XrpcCallError(method, 0, silence.unreachable, (err as Error).message)
  }
}
