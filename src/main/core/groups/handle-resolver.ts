import type { IdResolver } from '@atproto/identity'
import type { CoreOptions } from '../app-core.js'

/**
 * Handle → DID: the network's own resolution (DNS TXT, then https well-known) and, on
 * the local network, where `.test` handles resolve nowhere, its PDS and group host.
 */
export function handleResolver(idResolver: IdResolver, network: CoreOptions['network']) {
  return async (handle: string): Promise<string | null> => {
    const viaNetwork = await idResolver.handle.resolve(handle).catch(() => undefined)
    if (viaNetwork) return viaNetwork
    for (const base of network ? [network.pdsUrl, network.hostUrl] : []) {
      const url = new URL('/xrpc/com.atproto.identity.resolveHandle', base)
      url.searchParams.set('handle', handle)
      const res = await fetch(url).catch(() => null)
      if (res?.ok) {
        const body = (await res.json()) as { did?: string }
        if (body.did) return body.did
      }
    }
    return null
  }
}
