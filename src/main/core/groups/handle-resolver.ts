import { resolveTxt } from 'node:dns/promises'
import type { IdResolver } from '@atproto/identity'
import type { LocalNetwork } from '../network.js'

/** DNS answered that the name has no such record: the network is there, the handle is not. */
const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA'])

/**
 * Handle → DID: the network's own resolution (DNS TXT, then https well-known) and, on
 * the local network, where `.test` handles resolve nowhere, its PDS and group host.
 * Null when it names no one or nobody could be asked (strictHandleResolver tells them apart).
 */
export function handleResolver(idResolver: IdResolver, network: LocalNetwork, fetch: typeof globalThis.fetch) {
  const strict = strictHandleResolver(idResolver, network, fetch)
  return (handle: string): Promise<string | null> => strict(handle).catch(() => null)
}

/**
 * The same lookup, throwing when no directory answered at all (the network is gone):
 * null only when one answered that the handle names no one (a PDS or host said so, or
 * DNS said the name has no record). A walk-in at the door offline waits on the first.
 * `fetch` reaches the local network's PDS and host only: the trusted fetch (node/safe-fetch.ts).
 */
export function strictHandleResolver(idResolver: IdResolver, network: LocalNetwork, fetch: typeof globalThis.fetch) {
  return async (handle: string): Promise<string | null> => {
    const viaNetwork = await idResolver.handle.resolve(handle).catch(() => undefined)
    if (viaNetwork) return viaNetwork
    let answered = false
    for (const base of network ? [network.pdsUrl, network.hostUrl] : []) {
      const url = new URL('/xrpc/com.atproto.identity.resolveHandle', base)
      url.searchParams.set('handle', handle)
      // A host that hangs (the door's network half gone) must not hold the walk-in forever.
      const res = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(5000) }).catch(() => null)
      if (res) answered = true
      if (res?.ok) {
        const body = (await res.json()) as { did?: string }
        if (body.did) return body.did
      }
    }
    if (!answered && !network) {
      answered = await resolveTxt(`_atproto.${handle}`).then(
        () => true,
        (err: NodeJS.ErrnoException) => NO_SUCH_NAME.has(err.code ?? ''),
      )
    }
    if (!answered) throw new Error(`no directory answered for ${handle}`)
    return null
  }
}
