import { IdResolver, type DidCache } from '@atproto/identity'

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** Whether a URL points at this machine (the local network of `npm run stack`). */
export const isLoopbackUrl = (url: string) => LOOPBACK.has(new URL(url).hostname)

/**
 * DID and handle resolution. `@atproto/identity` defaults to an SSRF-protected fetch
 * that refuses loopback addresses; against a PLC on loopback (the local network) we
 * opt out, as its docs prescribe for dev networks. Anything else keeps the protection.
 * `didCache` keeps resolved DID documents (none by default: every lookup asks).
 */
export function createIdResolver(plcUrl: string, opts: { timeout?: number; didCache?: DidCache } = {}): IdResolver {
  return new IdResolver({
    plcUrl,
    timeout: opts.timeout ?? 3000,
    didCache: opts.didCache,
    ...(isLoopbackUrl(plcUrl) ? { fetch: globalThis.fetch } : {}),
  })
}
