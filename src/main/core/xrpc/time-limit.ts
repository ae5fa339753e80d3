import { hostTimeoutMs } from '../network.js'
import { XrpcCallError } from './xrpc-error.js'

/**
 * Sends one request to a group host with a time limit (network.ts): a host that takes
 * the connection and never answers is "not answering", one that cannot be reached is
 * "unreachable"; both are transient (status 0), so the outbox keeps the change and backs
 * off, and a sync moves on. The caller's own signal, if any, still aborts it.
 */
export async function sendWithTimeLimit(method: string, init: RequestInit, send: (init: RequestInit) => Promise<Response>, ms: number = hostTimeoutMs()): Promise<Response> {
  const timeout = AbortSignal.timeout(ms)
  try {
    return await send({ ...init, signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout })
  } catch (err) {
    if (timeout.aborted) throw new XrpcCallError(method, 0, 'HostNotAnswering', `no answer within ${ms} ms`)
    throw new XrpcCallError(method, 0, 'HostUnreachable', (err as Error).message)
  }
}
