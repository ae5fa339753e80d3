import type { Handlers } from './dispatch.js'
import { UserFacingError } from './errors.js'

/**
 * Lets the calls under way finish before the core closes its stores, and turns away the
 * ones that arrive after (a window still reading while the app quits). Without it, an
 * action queued in the last moment met a closed database: refused with a generic error
 * and logged as a crash. A call that waits on the person (a sign-in) is not waited for
 * beyond `graceMs`.
 */
export function closingGate(handlers: Handlers, graceMs = 5_000): { handlers: Handlers; drain(): Promise<void> } {
  let closing = false
  const inFlight = new Set<Promise<unknown>>()
  const gated = Object.fromEntries(
    Object.entries(handlers).map(([channel, handler]) => [
      channel,
      (input: unknown) => {
        if (closing) return Promise.reject(new UserFacingError('AppClosing', 'Convene is closing. Nothing was changed; do it again once it has started.'))
        const call = (handler as (i: unknown) => Promise<unknown>)(input)
        inFlight.add(call)
        void call.catch(() => {}).finally(() => inFlight.delete(call))
        return call
      },
    ]),
  ) as Handlers

  return {
    handlers: gated,
    async drain() {
      closing = true
      let timer: NodeJS.Timeout | undefined
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))
      await Promise.race([Promise.allSettled([...inFlight]), grace])
      clearTimeout(timer)
    },
  }
}
