import crypto from 'node:crypto'
import type { VerifiedServiceAuth } from './service-auth.js'

/** How many verified tokens are remembered; the oldest is forgotten first. */
const MAX_VERIFIED_TOKENS = 20_000

/**
 * Service-auth tokens whose signature this process has already checked (issue 18): the
 * app reuses one token per method for most of its 30-minute life (the host allows an hour), and checking its ES256K signature
 * again on every call is most of what an authenticated request costs. Keyed by the
 * SHA-256 of the whole token, so a hit is the same bytes (header, claims and signature)
 * that verified before; remembered only until the token's `exp`, after which it is
 * refused as expired anyway. Only successes are kept: a bad token costs its full check
 * every time, and cannot push good ones out faster than good ones arrive.
 *
 * What a hit skips is the signature and the issuer's key lookup; a caller whose key
 * rotates keeps using tokens signed by the old key until they expire (at most an hour,
 * the lifetime cap), as with any bearer token already handed out. Replay protection
 * (a getGroupAuth token accepted once) is separate and in the database
 * (service-jti.ts). Immutable data, so per process is correct with several processes.
 */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, VerifiedServiceAuth>()
  private lastSweep = 0

  constructor(
    private readonly max = MAX_VERIFIED_TOKENS,
    private readonly nowS: () => number = () => Date.now() / 1000,
  ) {}

  /** The verified claims of `token` when it verified before and has not expired. */
  get(token: string): VerifiedServiceAuth | undefined {
    const key = keyOf(token)
    const hit = this.entries.get(key)
    if (!hit) return undefined
    if (hit.exp <= this.nowS()) {
      this.entries.delete(key)
      return undefined
    }
    return hit
  }

  set(token: string, verified: VerifiedServiceAuth): void {
    if (verified.exp <= this.nowS()) return
    const key = keyOf(token)
    this.entries.delete(key)
    if (this.entries.size >= this.max) this.evict()
    this.entries.set(key, verified)
  }

  get size(): number {
    return this.entries.size
  }

  /**
   * Makes room: drops expired entries (at most once a second, the walk is linear), then
   * the oldest entry if that freed nothing.
   */
  private evict(): void {
    const now = this.nowS()
    if (now - this.lastSweep >= 1) {
      this.lastSweep = now
      for (const [key, v] of this.entries) if (v.exp <= now) this.entries.delete(key)
    }
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!)
  }
}

const keyOf = (token: string) => crypto.createHash('sha256').update(token).digest('base64url')
