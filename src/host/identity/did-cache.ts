import type { CacheResult, DidCache, DidDocument } from '@atproto/identity'

/** A cached document is refreshed (in the background) once it is this old. */
export const DID_CACHE_STALE_MS = 60_000
/** Past this age a cached document is not used at all: resolution waits for the PLC. */
export const DID_CACHE_MAX_MS = 60 * 60_000
/** How many DID documents the host keeps; the least recently stored go first. */
export const DID_CACHE_MAX_ENTRIES = 50_000
/** How long a DID its directory said does not exist is taken as absent without asking again. */
export const DID_CACHE_ABSENT_MS = 5 * 60_000
/** How many absent DIDs the host remembers; kept apart from the documents, so made-up DIDs cannot push real ones out. */
export const DID_CACHE_MAX_ABSENT = 10_000

export interface DidCacheOptions {
  staleMs: number
  maxMs: number
  maxEntries: number
  absentMs: number
  maxAbsent: number
}

const DEFAULTS: DidCacheOptions = {
  staleMs: DID_CACHE_STALE_MS,
  maxMs: DID_CACHE_MAX_MS,
  maxEntries: DID_CACHE_MAX_ENTRIES,
  absentMs: DID_CACHE_ABSENT_MS,
  maxAbsent: DID_CACHE_MAX_ABSENT,
}

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
 *
 * DIDs that do not exist are remembered too (issue 22), for `absentMs`: a caller naming
 * the same made-up DID again and again (as a group, an issuer, an invitee) would
 * otherwise cost a PLC request each time, and a PLC that starts refusing the host (429)
 * fails everyone else's look-ups. The resolver calls `clearEntry` exactly when the DID's
 * method answered "no such DID" (the PLC's 404), and answers an unexpired cache hit with
 * its `doc` as it is, so an absent entry is a hit whose document is null. Outages (the
 * PLC unreachable, a 5xx, a 429) throw instead and are never remembered.
 */
export class HostDidCache implements DidCache {
  private readonly entries = new Map<string, { doc: DidDocument; updatedAt: number }>()
  private readonly absent = new Map<string, number>()
  private readonly refreshing = new Set<string>()
  private readonly opts: DidCacheOptions

  constructor(
    opts: Partial<DidCacheOptions> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.opts = { ...DEFAULTS, ...opts }
  }

  async cacheDid(did: string, doc: DidDocument): Promise<void> {
    this.absent.delete(did)
    // Re-inserted so that Map order is the order entries were last stored.
    this.entries.delete(did)
    this.entries.set(did, { doc, updatedAt: this.now() })
    while (this.entries.size > this.opts.maxEntries) this.entries.delete(this.entries.keys().next().value!)
  }

  async checkCache(did: string): Promise<CacheResult | null> {
    const entry = this.entries.get(did)
    if (entry) {
      const age = this.now() - entry.updatedAt
      return { did, doc: entry.doc, updatedAt: entry.updatedAt, stale: age > this.opts.staleMs, expired: age > this.opts.maxMs }
    }
    const absentSince = this.absent.get(did)
    if (absentSince === undefined) return null
    if (this.now() - absentSince > this.opts.absentMs) {
      this.absent.delete(did)
      return null
    }
    // The resolver answers this hit's `doc`: null, "not found", without asking.
    return { did, doc: null as unknown as DidDocument, updatedAt: absentSince, stale: false, expired: false }
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

  /** The DID's directory said it does not exist: forget its document, remember it as absent. */
  async clearEntry(did: string): Promise<void> {
    this.entries.delete(did)
    this.absent.delete(did)
    this.absent.set(did, this.now())
    while (this.absent.size > this.opts.maxAbsent) this.absent.delete(this.absent.keys().next().value!)
  }

  async clear(): Promise<void> {
    this.entries.clear()
    this.absent.clear()
  }
}
