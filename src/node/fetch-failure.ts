import { FetchRequestError } from '@atproto-labs/fetch-node'

/**
 * Why a request through the guarded fetches (safe-fetch.ts) failed, as far as a person
 * needs to know:
 * - `refused`: the guard would not contact the address (this machine, a private or
 *   link-local network, an IP literal, plain http, a forbidden name); nothing was sent;
 * - `timeout`: no answer in time;
 * - `unreachable`: no connection (no such host, refused, reset, TLS failed);
 * - `refused-redirect`: the server answered with a redirect, which is never followed;
 * - `too-large`: the answer passed the size cap.
 * Undefined when the error is none of these (not a fetch failure, or one we cannot name).
 */
export type FetchFailure = 'refused' | 'timeout' | 'unreachable' | 'refused-redirect' | 'too-large'

/** The error and its causes, outermost first (a bounded walk: causes can loop). */
export function causeChain(err: unknown): unknown[] {
  const chain: unknown[] = []
  for (let e = err; e !== undefined && e !== null && chain.length < 16 && !chain.includes(e); e = (e as { cause?: unknown }).cause) chain.push(e)
  return chain
}

/**
 * What the address guard's refusals look like: `@atproto-labs/fetch`'s request checks
 * throw a FetchRequestError with a 4xx status and no cause (the request was never
 * made; a failure after connecting always has one), and `@atproto-labs/fetch-node`'s
 * connect-time checks (the DNS answer, every redirect hop) plain errors with these
 * messages. Kept in one place, beside the guard, so a library update that changes them
 * fails test/unit/safe-fetch.test.ts rather than the words a person reads.
 */
const GUARD_MESSAGES = /^(Hostname is not a public domain|Hostname resolved to non-unicast address|Hostname is a non-unicast address|Blocked by url policy\b)/

const UNREACHABLE_CODES = /^(ENOTFOUND|EAI_AGAIN|ECONN\w*|EHOSTUNREACH|ENETUNREACH|EPIPE|ERR_TLS\w*|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|CERT_\w+|UNABLE_TO_\w+|UND_ERR_SOCKET)$/

function failureOf(e: unknown): FetchFailure | undefined {
  if (!(e instanceof Error) && !(e instanceof DOMException)) return undefined
  if (e instanceof FetchRequestError && e.cause === undefined && (e.statusCode === 400 || e.statusCode === 403)) return 'refused'
  if (GUARD_MESSAGES.test(e.message)) return 'refused'
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'timeout'
  const code = (e as { code?: unknown }).code
  if (typeof code === 'string') {
    if (/^UND_ERR_\w*TIMEOUT$/.test(code)) return 'timeout'
    if (UNREACHABLE_CODES.test(code)) return 'unreachable'
  }
  if (e.message === 'unexpected redirect') return 'refused-redirect'
  if (e.message === 'Response too large') return 'too-large'
  return undefined
}

/** Why a guarded fetch failed, from the first cause that says (see {@link FetchFailure}). */
export function fetchFailure(err: unknown): FetchFailure | undefined {
  for (const e of causeChain(err)) {
    const failure = failureOf(e)
    if (failure) return failure
  }
  return undefined
}
