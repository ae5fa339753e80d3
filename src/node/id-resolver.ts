import { IdResolver, type DidCache } from '@atproto/identity'
import { createIdentityFetch } from './safe-fetch.js'

/**
 * DID and handle resolution. Only the configured PLC directory is exempt from SSRF
 * protection (it may be on loopback, as on the local network): did:web documents and
 * handles are fetched through the guard whatever the PLC's address (src/node/safe-fetch.ts).
 * `didCache` keeps resolved DID documents (none by default: every lookup asks).
 */
export function createIdResolver(plcUrl: string, opts: { timeout?: number; didCache?: DidCache } = {}): IdResolver {
  return new IdResolver({
    plcUrl,
    timeout: opts.timeout ?? 3000,
    didCache: opts.didCache,
    fetch: createIdentityFetch(plcUrl),
  })
}
