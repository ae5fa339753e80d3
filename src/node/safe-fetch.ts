import { safeFetchWrap } from '@atproto-labs/fetch-node'

type Fetch = typeof globalThis.fetch

/** Limits on anything fetched for a caller: small documents, quick answers. */
export const SAFE_FETCH_TIMEOUT_MS = 5_000
export const SAFE_FETCH_MAX_BYTES = 512 * 1024

/** Other limits than the defaults above, for a fetch whose answers are known to be bigger or slower. */
export interface FetchLimits {
  timeoutMs?: number
  maxBytes?: number
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** Whether a URL points at this machine (the local network of `npm run stack`). */
export const isLoopbackUrl = (url: string | URL) => LOOPBACK_HOSTS.has(new URL(url).hostname)

const urlOf = (input: string | URL | Request) => new URL(input instanceof Request ? input.url : input)

/**
 * A fetch for addresses a caller chose (a did:web's host, a handle's domain, a member's
 * PDS from their DID document): `@atproto-labs/fetch-node`'s SSRF guard, as the PDS
 * and `@atproto/oauth-client-node` use it. It resolves the host name and refuses it if
 * any address is loopback, private, link-local, multicast or otherwise not public
 * unicast (checked at connect time, so DNS rebinding between check and use is not a
 * gap), refuses IP-literal hosts and plain http, checks every redirect hop the same way,
 * and caps time and response size. Requests must say how to treat redirects.
 */
export function createPublicFetch(opts: { allowCustomPort?: boolean } & FetchLimits = {}): Fetch {
  return safeFetchWrap({
    allowIpHost: false,
    allowImplicitRedirect: false,
    allowCustomPort: opts.allowCustomPort ?? false,
    timeout: opts.timeoutMs ?? SAFE_FETCH_TIMEOUT_MS,
    responseMaxSize: opts.maxBytes ?? SAFE_FETCH_MAX_BYTES,
  }) as Fetch
}

/**
 * Time and size limits without the address checks, for the servers the operator
 * configured (the PLC directory, `--handle-resolver`) and, in development only
 * (`--allow-loopback-peers`), loopback peers: nothing else may reach loopback.
 * Redirects are refused: a trusted origin must not hand the request on to one that is
 * not. Callers pass `redirect: 'error'`.
 */
export function createTrustedFetch(limits: FetchLimits = {}): Fetch {
  return safeFetchWrap({
    ssrfProtection: false,
    allowImplicitRedirect: true,
    timeout: limits.timeoutMs ?? SAFE_FETCH_TIMEOUT_MS,
    responseMaxSize: limits.maxBytes ?? SAFE_FETCH_MAX_BYTES,
  }) as Fetch
}

/**
 * `fetch` with every request sent as `redirect: 'error'`, whatever it asks, so no hop
 * is ever followed. For clients that leave redirects at fetch's default (`follow`), as
 * atproto's OAuth client does with its PAR and token POSTs: the guards above refuse
 * such a request outright rather than guess.
 */
export function withoutRedirects(fetch: Fetch): Fetch {
  return ((input: string | URL | Request, init?: RequestInit) => fetch(input, { ...init, redirect: 'error' })) as Fetch
}

/** Sends requests for URLs `isTrusted` accepts to `trusted`, all others to `untrusted`. */
function routeByOrigin(trusted: Fetch, untrusted: Fetch, isTrusted: (url: URL) => boolean): Fetch {
  return ((input: string | URL | Request, init?: RequestInit) => {
    const url = urlOf(input)
    if (isTrusted(url)) return trusted(input, { ...init, redirect: 'error' })
    return untrusted(input, init)
  }) as Fetch
}

/**
 * The fetch DID and handle resolution uses: the configured PLC directory is trusted
 * (it may be on loopback, as on the local network); every other address (did:web
 * documents, handles' `/.well-known/atproto-did`) goes through the SSRF guard, whatever
 * the PLC's address.
 */
export function createIdentityFetch(plcUrl: string): Fetch {
  const plcOrigin = new URL(plcUrl).origin
  return routeByOrigin(createTrustedFetch(), createPublicFetch(), (url) => url.origin === plcOrigin)
}

/**
 * The fetch for members' PDSes and other peers named in DID documents
 * (the host's `peerFetch`, for records it pulls). Public addresses only, on any port;
 * `allowLoopbackPeers` (the host's `--allow-loopback-peers`, development only: the
 * local network's PDS is on 127.0.0.1) also lets loopback addresses through, never
 * private or link-local ones. Pass `redirect` explicitly (`'error'` is right for atproto
 * XRPC calls).
 */
export function createPeerFetch(opts: { allowLoopbackPeers: boolean } & FetchLimits): Fetch {
  const { allowLoopbackPeers, ...limits } = opts
  const publicFetch = createPublicFetch({ allowCustomPort: true, ...limits })
  if (!allowLoopbackPeers) return publicFetch
  return routeByOrigin(createTrustedFetch(limits), publicFetch, (url) => isLoopbackUrl(url))
}

/** The most a group host's answer to the desktop may weigh: a page of records or one space image (1 MB), with room. */
export const HOST_CALL_MAX_BYTES = 16 * 1024 * 1024

/**
 * The fetch the desktop's core calls group hosts' methods with, and sends a group
 * credential's writes to the address the host's grant names: the peer fetch's address
 * rules (public addresses, https; loopback only on the local network), no redirect
 * followed whatever the call asks (a host must not hand a signed request on), and a size
 * cap fit for images and pages. Its time limit is only a backstop: each call carries the
 * core's own (main/core/xrpc/time-limit.ts), which names a silent host for the person.
 */
export function createHostCallFetch(opts: { allowLoopbackPeers: boolean }): Fetch {
  return withoutRedirects(createPeerFetch({ ...opts, timeoutMs: 120_000, maxBytes: HOST_CALL_MAX_BYTES }))
}
