import { isIPv6 } from 'node:net'
import type express from 'express'
import type { CounterStore } from './window-counter.js'
import type { RateLimits } from './rate-limits.js'
import { limitInWords, waitInWords } from './refusal.js'
import { wasAuthenticated, whenAuthenticated } from './authenticated.js'

/**
 * The address a limit counts against: IPv4 as is, IPv6 by its /64 (one household or
 * server gets a whole /64, so single addresses would cost an attacker nothing).
 */
export function ipKey(ip: string | undefined): string {
  if (!ip) return 'unknown'
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  if (mapped) return mapped[1]!
  if (!isIPv6(ip)) return ip
  const [head = '', tail = ''] = ip.split('::')
  const left = head ? head.split(':') : []
  const right = ip.includes('::') && tail ? tail.split(':') : []
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left
  return `${groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, '')).join(':')}::/64`
}

/** A 429 as @atproto/pds sends it (headers of xrpc-server's rate limiter) with `{error, message}`. */
function refuse(res: express.Response, limit: number, windowSeconds: number, resetAt: number) {
  const ms = Math.max(0, resetAt - Date.now())
  res.setHeader('RateLimit-Limit', limit)
  res.setHeader('RateLimit-Remaining', 0)
  res.setHeader('RateLimit-Reset', Math.floor(resetAt / 1000))
  res.setHeader('RateLimit-Policy', `${limit};w=${windowSeconds}`)
  res.setHeader('Retry-After', Math.ceil(ms / 1000))
  res.status(429).json({
    error: 'RateLimitExceeded',
    message: `Too many requests without valid credentials from your network: this host allows ${limitInWords(limit, windowSeconds)}. Try again ${waitInWords(ms)}.`,
  })
}

/** Addresses whose stored count one process keeps in mind at most (ended windows go first). */
const MAX_REMEMBERED = 10_000

/** Only XRPC methods take credentials; an `Authorization` header elsewhere is just a header. */
const mayAuthenticate = (req: express.Request) => !!req.headers.authorization && req.path.startsWith('/xrpc/')

/**
 * Limits requests that carry no credentials, or whose credentials the host did not
 * accept, per IP address. The per-account limits (./xrpc-limits.ts) cannot count these:
 * they have no account. A request without credentials is counted as it arrives. One
 * with them is counted once it ends (answered, or the caller gone), unless its
 * credentials were accepted, so junk in the header does not dodge the limit on methods
 * that need none; while its credentials are being checked it holds a place, so many
 * sent at once cannot all pass before the first is counted. A 401 nonce challenge
 * (`DPoP-Nonce`) counts like any refusal (issue 22): answering one costs the host, and
 * a client that keeps the nonce it is handed needs one only now and then. Once an
 * address has used its allowance, everything from it is refused until the window ends,
 * before any token is looked at, so a flood of bad tokens stops costing signature checks
 * and DID look-ups.
 */
export function unauthenticatedLimit(store: CounterStore, limits: RateLimits): express.RequestHandler {
  const limit = limits.unauthenticated
  const windowMs = limits.windowSeconds * 1000
  // Per address, requests with credentials not yet accepted nor counted (this process's).
  const checking = new Map<string, number>()
  const hold = (key: string, by: number) => {
    const n = (checking.get(key) ?? 0) + by
    if (n > 0) checking.set(key, n)
    else checking.delete(key)
  }
  // Per address, the newest count this process stored (until its window ends). A peek
  // already on its way when a count landed and its place was given up (on PostgreSQL a
  // peek is a round trip) answers the count before it: without this, one of a burst
  // slipped past the allowance now and then.
  const stored = new Map<string, { count: number; resetAt: number }>()
  const remember = (key: string, status: { count: number; resetAt: number }) => {
    const known = stored.get(key)
    if (!known || known.resetAt !== status.resetAt || known.count < status.count) stored.set(key, status)
    if (stored.size > MAX_REMEMBERED) for (const [k, v] of stored) if (v.resetAt <= Date.now()) stored.delete(k)
  }
  const countOf = (key: string, peeked: { count: number; resetAt: number }) => {
    const known = stored.get(key)
    return known && known.resetAt === peeked.resetAt ? Math.max(known.count, peeked.count) : peeked.count
  }
  return async (req, res, next) => {
    if (limit <= 0) return next()
    try {
      const key = `ip ${ipKey(req.ip)}`
      if (!mayAuthenticate(req)) {
        const status = await store.hit(key, 1, windowMs)
        if (status.count > limit) return refuse(res, limit, limits.windowSeconds, status.resetAt)
        return next()
      }
      const status = await store.peek(key, windowMs)
      if (countOf(key, status) + (checking.get(key) ?? 0) >= limit) return refuse(res, limit, limits.windowSeconds, status.resetAt)
      hold(key, 1)
      let held = true
      const release = () => {
        if (held) hold(key, -1)
        held = false
      }
      whenAuthenticated(req, release)
      // 'close' comes however the request ends, also when the caller hangs up first. The
      // place is given up once the count has landed, so there is no moment between.
      res.once('close', () => {
        if (wasAuthenticated(req)) return release()
        void store
          .hit(key, 1, windowMs)
          .then((counted) => remember(key, counted))
          .catch(() => {})
          .finally(release)
      })
    } catch (err) {
      return next(err)
    }
    next()
  }
}
