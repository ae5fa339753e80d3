import { ResponseType, XrpcClient, XRPCError, XRPCInvalidResponseError } from '@atproto/xrpc'
import { log } from '../log/log.js'
import { LEXICONS, type Output, type ProcedureInput, type ProcedureNsid, type QueryNsid, type QueryParams } from './methods.js'
import { readXrpc, XrpcCallError } from './xrpc-error.js'

/** Who answered: a group host, or the person's own server (their PDS). */
export type Peer = 'host' | 'pds'

/** The error names for an answer that does not match the lexicons (plain words in src/shared/errors.ts). */
export const NOT_UNDERSTOOD: Record<Peer, string> = { host: 'HostAnswerNotUnderstood', pds: 'ServerAnswerNotUnderstood' }

/**
 * Sends one request (`path` is /xrpc/<method>?…) with the caller's own auth (service
 * auth, DPoP, an OAuth session); a peer that cannot be reached is the caller's to name.
 */
export type Send = (path: string, init: RequestInit) => Promise<Response>

/**
 * One XRPC call through @atproto/xrpc's client with the schemas generated from the
 * lexicons (src/node/lexicon): it builds the request from the method's lexicon and
 * checks the answer against it. A refusal keeps its
 * status and error name (XrpcCallError, as the outbox and sync expect); an answer that
 * does not match the lexicon becomes a plain "answered something Convene does not
 * understand", with what did not match in the app's log, so another host's odd answer
 * is never taken for data.
 */
export function callQuery<M extends QueryNsid>(send: Send, peer: { kind: Peer; url: string }, method: M, params: QueryParams<M>): Promise<Output<M>> {
  return call(send, peer, method, params, undefined) as Promise<Output<M>>
}

/** `params`: a procedure's query parameters, for the few that take some (an upload names its space). */
export function callProcedure<M extends ProcedureNsid>(send: Send, peer: { kind: Peer; url: string }, method: M, input: ProcedureInput<M>, encoding?: string, params?: Record<string, string>): Promise<Output<M>> {
  return call(send, peer, method, params, input, encoding) as Promise<Output<M>>
}

/** `encoding`: the body's type when it is not JSON (an image uploaded as its bytes). */
async function call(send: Send, peer: { kind: Peer; url: string }, method: string, params: object | undefined, input: unknown, encoding?: string): Promise<unknown> {
  // Refusals are read here, with their real status and headers; the client sees only
  // successful answers, which it parses and validates.
  const client = new XrpcClient(async (path, init) => {
    const res = await send(path, init)
    if (!res.ok) await readXrpc(method, res)
    return res
  }, LEXICONS)
  try {
    const res = await client.call(method, params as Record<string, unknown> | undefined, input, encoding ? { encoding } : undefined)
    return res.data
  } catch (err) {
    if (err instanceof XRPCInvalidResponseError || (err instanceof XRPCError && err.status === ResponseType.InvalidResponse)) {
      const problem = err instanceof XRPCInvalidResponseError ? err.validationError.message : err.message
      log.warn('xrpc', 'an answer did not match the lexicon', { method, peer: peer.kind, url: peer.url, problem })
      throw new XrpcCallError(method, 200, NOT_UNDERSTOOD[peer.kind]!, '')
    }
    // Our own errors (a refusal, an unreachable peer, an unsupported server) come back
    // wrapped by the client: unwrap them.
    if (err instanceof XRPCError && err.cause !== undefined && !(err.cause instanceof XRPCError)) throw err.cause
    throw err
  }
}

