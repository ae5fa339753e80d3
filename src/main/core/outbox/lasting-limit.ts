import { XrpcCallError } from '../xrpc/xrpc-error.js'

/**
 * A rate limit that lifts within this is waited out: the action stays queued and its
 * back-off lasts at least until the limit lifts (backoff.ts). One that lasts longer
 * refuses the action: the host now has limits per person that last a day (join
 * requests) or until its moderators act (waiting reports), and waiting one out would
 * hold every later action of the group.
 */
export const SHORT_LIMIT_MS = 2 * 60_000

/** The longest server message shown as is; a hostile host could send pages. */
const MAX_SHOWN_MESSAGE = 300

/**
 * When a 429 says its limit lifts, in ms since the epoch: `Retry-After` (seconds, or
 * an HTTP date), else `RateLimit-Reset` (Unix seconds, as atproto servers send it;
 * small values are read as seconds from now, as the IETF draft has it). Undefined when
 * it does not say.
 */
export function limitLiftsAt(headers: Headers | undefined, now: number): number | undefined {
  const retryAfter = headers?.get('retry-after')?.trim()
  if (retryAfter) {
    if (/^\d+$/.test(retryAfter)) return now + Number(retryAfter) * 1000
    const date = Date.parse(retryAfter)
    if (!Number.isNaN(date)) return date
  }
  const reset = headers?.get('ratelimit-reset')?.trim()
  if (reset && /^\d+$/.test(reset)) {
    const n = Number(reset)
    return n > 1_000_000_000 ? n * 1000 : now + n * 1000
  }
  return undefined
}

/**
 * Whether a refusal is a rate limit that will not lift soon: one that says it lifts
 * more than SHORT_LIMIT_MS from now, or an XRPC server's own `RateLimitExceeded` that
 * names no time (atproto servers name one for every limit that lifts with time, so
 * this one lifts when something else happens). A bare 429 with no time, as a proxy in
 * front may send, is still waited out.
 */
export function isLastingLimit(err: unknown, now = Date.now()): err is XrpcCallError {
  if (!(err instanceof XrpcCallError) || err.status !== 429) return false
  const at = limitLiftsAt(err.headers, now)
  if (at === undefined) return err.error === 'RateLimitExceeded'
  return at - now > SHORT_LIMIT_MS
}

/**
 * What a person reads on an action refused by a lasting limit: the host's own words
 * (they say what limit it is) and, when it says, from when trying again may work.
 */
export function lastingLimitWords(err: XrpcCallError, now = Date.now()): string {
  let message = err.serverMessage.trim() || 'You have reached one of its limits'
  if (message.length > MAX_SHOWN_MESSAGE) message = `${message.slice(0, MAX_SHOWN_MESSAGE)}…`
  if (!/[.!?…]$/.test(message)) message += '.'
  const at = limitLiftsAt(err.headers, now)
  const when = at === undefined ? '' : ` You can try again after ${tryAgainAfter(at)}.`
  return `The group host refused this: ${message}${when}`
}

/** "Thursday, November 26 at 2:05 PM" in the person's own locale. */
export function tryAgainAfter(at: number): string {
  return new Date(at).toLocaleString(undefined, { weekday: 'long', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit' })
}
