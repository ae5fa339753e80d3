import type { Response } from 'express'
import { RateLimitExceededError } from '@atproto/xrpc-server'

/**
 * Runs a handler's work, and if it refuses the caller with a limit of its own (one
 * person's join requests a day, reports waiting for the moderators), answers with
 * headers describing that limit. xrpc-server sets `RateLimit-*` headers only for the
 * limits it counts itself, so the 429 would otherwise carry the hourly procedure
 * count's (thousands remaining, a reset within the hour) and no `Retry-After`: a client
 * would read it as "slow down a moment" and retry in vain. A limit that lifts only when
 * something else happens (`msBeforeNext` 0: the moderators deal with a report) names no
 * time.
 */
export async function withCapHeaders<T>(res: Response, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (err) {
    if (err instanceof RateLimitExceededError && !res.headersSent) {
      const { limit, duration, msBeforeNext } = err.status
      res.setHeader('RateLimit-Limit', limit)
      res.setHeader('RateLimit-Remaining', 0)
      res.setHeader('RateLimit-Policy', duration > 0 ? `${limit};w=${duration}` : String(limit))
      if (msBeforeNext > 0) {
        res.setHeader('RateLimit-Reset', Math.floor((Date.now() + msBeforeNext) / 1000))
        res.setHeader('Retry-After', Math.ceil(msBeforeNext / 1000))
      } else {
        res.removeHeader('RateLimit-Reset')
        res.removeHeader('Retry-After')
      }
    }
    throw err
  }
}
