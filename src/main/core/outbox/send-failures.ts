import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { toIpcError, UserFacingError } from '../ipc/errors.js'
import { errorFields, log } from '../log/log.js'
import { isLastingLimit, lastingLimitWords } from './lasting-limit.js'

// What a queued action's failed send means (try again later, wait for the person, or
// refused) and the plain words a person reads for it.

const WAIT_FOR_PERSON = new Set(['SignInRequired', 'KeychainUnavailable', 'ScopeMissingError'])

/**
 * Whether a failure means "keep it and try again later" (offline, host down, sign-in
 * ended, a rate limit that lifts in a moment) rather than "the host refused it" (a
 * rate limit that lasts: lasting-limit.ts). Unknown failures are kept too: a queued
 * action is never dropped because of our own bug.
 */
export function retryLater(err: unknown): boolean {
  if (err instanceof XrpcCallError) return err.status === 0 || err.status === 401 || (err.status === 429 && !isLastingLimit(err)) || err.status >= 500
  if (err instanceof UserFacingError) return WAIT_FOR_PERSON.has(err.code) || err.code === 'HostUnreachable'
  return true
}

/**
 * A failure only the person can end (their sign-in ended, the keychain is locked): the
 * action waits for them however long it takes, tried again at each pass, and these
 * tries do not count toward the outbox's cap.
 */
export function waitsForPerson(err: unknown): boolean {
  return (err instanceof XrpcCallError && err.status === 401) || (err instanceof UserFacingError && WAIT_FOR_PERSON.has(err.code))
}

/**
 * What a person reads on a row that has not gone out: plain words, never a method name
 * or a socket error (the row's state says whether it will be tried again). The
 * technical error goes to the log.
 */
export function plainReason(err: unknown): string {
  if (isLastingLimit(err)) {
    log.warn('outbox', 'refused by a lasting limit', errorFields(err))
    return lastingLimitWords(err)
  }
  return toIpcError(err, (e) => log.warn('outbox', 'not sent', errorFields(e))).message
}
