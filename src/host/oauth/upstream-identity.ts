import type { IdResolver } from '@atproto/identity'
import type { NodeOAuthClientOptions } from '@atproto/oauth-client-node'
import { createTrustedFetch } from '../../node/safe-fetch.js'
import { NoAccountError } from './sign-in-failure.js'

type DidResolver = NonNullable<NodeOAuthClientOptions['didResolver']>
type HandleResolver = Exclude<NonNullable<NodeOAuthClientOptions['handleResolver']>, string | URL>
type DidCache = NonNullable<NodeOAuthClientOptions['didCache']>

/**
 * How the host's sign-in client (upstream.ts) finds the person who typed their handle
 * or DID: with the host's own resolvers, so the sign-in follows the host's rules for
 * DIDs and handles (src/node/safe-fetch.ts): the operator's PLC directory may be
 * anywhere, every did:web and handle is fetched through the SSRF guard, never from
 * this machine or its network, with or without --allow-loopback-peers. Left to
 * itself, the client would resolve them with its own fetch.
 */
export function upstreamIdentity(idResolver: IdResolver, handleResolverUrl: string | undefined) {
  return {
    didResolver: hostDidResolver(idResolver),
    // The host's DID cache is the one cache: the client keeps no second copy.
    didCache: noCache,
    handleResolver: handleResolverUrl ? xrpcHandleResolver(handleResolverUrl) : hostHandleResolver(idResolver),
  }
}

function hostDidResolver(idResolver: IdResolver): DidResolver {
  const resolver = {
    async resolve(did: string, options?: { noCache?: boolean }) {
      const doc = await idResolver.did.resolve(did, options?.noCache ?? false)
      if (!doc) throw new NoAccountError(`${did} has no DID document`)
      return doc
    },
  }
  // The same document, as @atproto/identity types it rather than @atproto/did.
  return resolver as unknown as DidResolver
}

type ResolvedHandle = Awaited<ReturnType<HandleResolver['resolve']>>
const asResolved = (did: unknown): ResolvedHandle => (typeof did === 'string' && /^did:(plc|web):/.test(did) ? (did as ResolvedHandle) : null)

function hostHandleResolver(idResolver: IdResolver): HandleResolver {
  return { resolve: async (handle) => asResolved(await idResolver.handle.resolve(handle)) }
}

/**
 * Handles asked of the server the operator named (`--handle-resolver`, which answers
 * com.atproto.identity.resolveHandle): trusted as the PLC is, time and size capped, no
 * redirects.
 */
function xrpcHandleResolver(serviceUrl: string): HandleResolver {
  const fetch = createTrustedFetch()
  return {
    async resolve(handle, options) {
      const url = new URL('/xrpc/com.atproto.identity.resolveHandle', serviceUrl)
      url.searchParams.set('handle', handle)
      const res = await fetch(url, { redirect: 'error', signal: options?.signal })
      if (!res.ok) {
        await res.body?.cancel()
        return null
      }
      return asResolved(((await res.json()) as { did?: unknown }).did)
    },
  }
}

const noCache: DidCache = { get: () => undefined, set: () => {}, del: () => {} }
