import { RateLimitExceededError } from '@atproto/xrpc-server'

/** "in 12 minutes" / "in 40 seconds": when a refused caller may try again. */
export function waitInWords(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000))
  if (s < 120) return `in ${s} second${s === 1 ? '' : 's'}`
  const m = Math.ceil(s / 60)
  return m < 120 ? `in ${m} minutes` : `in ${Math.ceil(m / 60)} hours`
}

/** "10 an hour", "5 every 10 minutes": a limit as people say it. */
export function limitInWords(points: number, windowSeconds: number): string {
  if (windowSeconds === 3600) return `${points} an hour`
  if (windowSeconds % 3600 === 0) return `${points} every ${windowSeconds / 3600} hours`
  if (windowSeconds % 60 === 0) return `${points} every ${windowSeconds / 60} minutes`
  return `${points} every ${windowSeconds} seconds`
}

/**
 * The refusal for a bound that lifts only when something else happens (reports dealt
 * with, invites answered, a space deleted), not with time: a 429 whose status names no
 * wait, so limits/cap-headers.ts sends no Retry-After.
 */
export function capReached(limit: number, count: number, message: string): RateLimitExceededError {
  return new RateLimitExceededError({ limit, duration: 0, remainingPoints: 0, msBeforeNext: 0, consumedPoints: count, isFirstInDuration: false }, message)
}
