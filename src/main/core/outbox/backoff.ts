import { UserFacingError } from '../ipc/errors.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { limitLiftsAt } from './lasting-limit.js'

/** The wait after the first transient failure; each further one doubles it. */
export const FIRST_DELAY_MS = 2_000
/** The longest wait between two tries of one action. */
export const MAX_DELAY_MS = 60 * 60_000
/**
 * Transient failures after which an action is failed and left for the person: with the
 * waits above, somewhere between 12 and 25 hours of a host that cannot take it. A
 * sign-in that ended does not count (the action waits for the person, however long).
 */
export const MAX_FAILURES = 36

/**
 * When to try an action again after its `failures`-th transient failure: doubling waits
 * up to MAX_DELAY_MS, each drawn between half and all of its ceiling so the actions of
 * many groups (or many apps) that failed together do not all come back together; never
 * before a short rate limit says it lifts (lasting-limit.ts).
 */
export function nextAttemptAt(failures: number, err: unknown, now: number, random: () => number): number {
  const ceiling = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, failures - 1))
  const at = now + Math.round(ceiling / 2 + (random() * ceiling) / 2)
  const lifts = err instanceof XrpcCallError && err.status === 429 ? limitLiftsAt(err.headers, now) : undefined
  return Math.max(at, lifts ?? 0)
}

/** What a person reads on an action the outbox stopped trying: why, and what they can do. */
export function gaveUpWords(err: unknown, failures: number): string {
  const why =
    err instanceof XrpcCallError && err.status >= 500
      ? `the group host kept failing to take it (error ${err.status})`
      : err instanceof XrpcCallError && err.status === 429
        ? 'the group host kept asking Convene to slow down'
        : err instanceof XrpcCallError && err.error.startsWith('Server')
          ? 'your account’s server could not be reached'
          : err instanceof XrpcCallError || (err instanceof UserFacingError && err.code === 'HostUnreachable')
            ? 'the group host could not be reached'
            : 'something went wrong in Convene (the details are in its log)'
  return `Not sent: ${why}, ${failures} tries over many hours. Dismiss it, or make the change again when the host is back.`
}
