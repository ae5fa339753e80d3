import { OAuthError } from './errors.js'
import type { ClientMetadata } from './client-metadata.js'

interface Entry {
  /** The checked metadata, or the refusal, of one fetch; shared by all who ask meanwhile. */
  result: Promise<ClientMetadata>
  expiresAt: number
  bytes: number
}

export interface ClientCacheLimits {
  /** How long a checked document is used without fetching it again (oauth-provider: 10 minutes). */
  okMs: number
  /** How long a refusal is repeated without fetching again: short, so a fixed document is soon seen. */
  refusedMs: number
  /** The most the cache holds, counted as the JSON of what it keeps. */
  maxBytes: number
}

const DEFAULT_LIMITS: ClientCacheLimits = { okMs: 10 * 60_000, refusedMs: 30_000, maxBytes: 4 * 1024 * 1024 }

/**
 * Client metadata documents, fetched once and kept a while, as `@atproto/oauth-provider`
 * keeps them: a flood of PARs naming one client costs one fetch, and requests arriving
 * while it is under way wait for that one. A refusal (`invalid_client`) is kept for a
 * short while too, so a document that does not pass is not fetched on every PAR
 * either. Bounded by size: the least recently used entries go first.
 */
export class ClientMetadataCache {
  private readonly entries = new Map<string, Entry>()
  private bytes = 0

  constructor(
    private readonly load: (clientId: string) => Promise<ClientMetadata>,
    private readonly limits: ClientCacheLimits = DEFAULT_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  get(clientId: string): Promise<ClientMetadata> {
    const found = this.entries.get(clientId)
    if (found && found.expiresAt > this.now()) {
      // Most recently used last: eviction takes from the front.
      this.entries.delete(clientId)
      this.entries.set(clientId, found)
      return found.result
    }
    if (found) this.remove(clientId, found)
    const entry: Entry = { result: this.load(clientId), expiresAt: Infinity, bytes: clientId.length }
    this.add(clientId, entry)
    entry.result.then(
      (metadata) => this.settle(clientId, entry, this.limits.okMs, JSON.stringify(metadata).length),
      (err: unknown) => {
        // Only a refusal is kept; anything else (a bug, the host shutting down) is tried afresh.
        if (err instanceof OAuthError) this.settle(clientId, entry, this.limits.refusedMs, err.message.length)
        else if (this.entries.get(clientId) === entry) this.remove(clientId, entry)
      },
    )
    return entry.result
  }

  private settle(clientId: string, entry: Entry, ttlMs: number, bytes: number): void {
    if (this.entries.get(clientId) !== entry) return
    entry.expiresAt = this.now() + ttlMs
    this.bytes += bytes
    entry.bytes += bytes
    this.evict()
  }

  private add(clientId: string, entry: Entry): void {
    this.entries.set(clientId, entry)
    this.bytes += entry.bytes
    this.evict()
  }

  private remove(clientId: string, entry: Entry): void {
    this.entries.delete(clientId)
    this.bytes -= entry.bytes
  }

  private evict(): void {
    for (const [clientId, entry] of this.entries) {
      if (this.bytes <= this.limits.maxBytes) return
      this.remove(clientId, entry)
    }
  }
}
