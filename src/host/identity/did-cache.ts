import type { CacheResult, DidCache, DidDocument } from '@atproto/identity'

/** A cached document is refreshed (in the background) once it is this old. */
export const DID_CACHE_STALE_MS = 60_000
/** Past this age a cached document is not used at all: resolution waits for the PLC. */
export const DID_CACHE_MAX_MS = 60 * 60_000
/** How many DID documents the host keeps; the least recently stored go first. */
export const DID_CACHE_MAX_ENTRIES = 50_000

/**
 * DID documents the host has resolved, so that service auth does not cost a round trip
 * to the PLC directory on every request: the issuer's signing key is what every
 * authenticated call needs, and it rarely changes.
 *
 * A key change still takes effect quickly: `verifyJwt` resolves afresh (bypassing the
 * cache) whenever a signature does not verify with the cached key, so a new key works
 * at once; and an entry older than `staleMs` is refreshed in the background on its next
 * use, so an old key stops working within about `staleMs` of the change while the PLC
 * answers. Unlike `@atproto/identity`'s MemoryCache, the size is bounded and a stale
 * hit does not wait for the refresh.
 */
export class HostDidCache implements DidCache {
  private readonly entries = new Map<string, { doc: DidDocument; updatedAt: number }>()
  private readonly refreshing = new Set<string>()

  constructor(
    private readonly opts: { staleMs: number; maxMs: number; maxEntries: number } = {
      staleMs: DID_CACHE_STALE_MS,
      maxMs: DID_CACHE_MAX_MS,
      maxEntries: DID_CACHE_MAX_ENTRIES,
    },
    private readonly now: () => number = Date.now,
  ) {}

  async cacheDid(did: string, doc: DidDocument): Promise<void> {
    // Re-inserted so that Map order is the order entries were last stored.
    this.entries.delete(did)
    this.entries.set(did, { doc, updatedAt: this.now() })
    while (this.entries.size > this.opts.maxEntries) this.entries.delete(this.entries.keys().next().value!)
  }

  async checkCache(did: string): Promise<CacheResult | null> {
    const entry = this.entries.get(did)
    if (!entry) return null
    const age = this.now() - entry.updatedAt
    return { did, doc: entry.doc, updatedAt: entry.updatedAt, stale: age > this.opts.staleMs, expired: age > this.opts.maxMs }
  }

  /** Starts one background refresh per DID and returns at once; a failed one leaves the entry be. */
  async refreshCache(did: string, getDoc: () => Promise<DidDocument | null>): Promise<void> {
    if (this.refreshing.has(did)) return
    this.refreshing.add(did)
    void getDoc()
      .then((doc) => (doc ? this.cacheDid(did, doc) : this.clearEntry(did)))
      .catch(() => {})
      .finally(() => this.refreshing.delete(did))
  }

  async clearEntry(did: string): Promise<void> {
    this.entries.delete(did)
  }

  async clear(): Promise<void> {
    this.entries.clear()
  }
}
