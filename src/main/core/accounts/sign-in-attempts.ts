import { randomUUID } from 'node:crypto'
import { UserFacingError } from '../ipc/errors.js'
import type { openLoopbackRedirect } from './loopback-redirect.js'

const SIGN_IN_TIMEOUT_MS = 10 * 60_000
/** How long a finished attempt's result can still be asked for. */
const KEPT_AFTER_MS = 60_000

type LoopbackRedirect = Awaited<ReturnType<typeof openLoopbackRedirect>>

/**
 * Sign-ins under way in the person's browser (accounts and group sessions alike): each
 * waits for its loopback redirect at most ten minutes, closes it when done, and stays
 * askable for a minute after (the window asks with its attempt id).
 */
export class SignInAttempts<T> {
  private readonly attempts = new Map<string, Promise<T>>()

  /** Waits for `redirect`'s callback, then `finish` turns its parameters into the result. */
  start(redirect: LoopbackRedirect, finish: (params: URLSearchParams) => Promise<T>): string {
    const attemptId = randomUUID()
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new UserFacingError('SignInTimedOut', 'Sign-in took too long. Start it again.')), SIGN_IN_TIMEOUT_MS)
    })
    const result = Promise.race([redirect.params, timeout])
      .then(finish)
      .finally(() => {
        clearTimeout(timer)
        redirect.close()
        setTimeout(() => this.attempts.delete(attemptId), KEPT_AFTER_MS).unref()
      })
    result.catch(() => {}) // observed through result()
    this.attempts.set(attemptId, result)
    return attemptId
  }

  /** The attempt's outcome, once the person finishes (or refuses) it. */
  result(attemptId: string): Promise<T> {
    const attempt = this.attempts.get(attemptId)
    if (!attempt) throw new UserFacingError('SignInNotFound', 'That sign-in is no longer in progress. Start it again.')
    return attempt
  }
}
