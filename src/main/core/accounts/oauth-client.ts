import { NodeOAuthClient, type NodeSavedSessionStore, type NodeSavedStateStore } from '@atproto/oauth-client-node'
import { requestLocalLock } from '@atproto/oauth-client'
import { BUILD_CLIENT_ID, chooseClient, clientMetadataFor } from './client-identity.js'
import { createPeerFetch, HOST_CALL_MAX_BYTES, withoutRedirects } from '@node/safe-fetch.js'

/** Where people's identities live: the real network, or `npm run stack`'s. */
export interface IdentityNetwork {
  /** PLC directory; the real one when undefined. */
  plcUrl?: string
  /** Resolves handles (a PDS's resolveHandle); DNS and .well-known when undefined. */
  handleResolverUrl?: string
  /** Only the local network is plain http (and it always signs in as the development client). */
  allowHttp: boolean
}

/**
 * One oauth-client per redirect port. `requestLocalLock` serializes token refreshes
 * within this process; the Electron shell holds a single-instance lock, so no other
 * process refreshes the same session concurrently.
 */
export function createOAuthClient(opts: {
  network: IdentityNetwork
  scope: string
  port?: number
  sessionStore: NodeSavedSessionStore
  stateStore: NodeSavedStateStore
}): NodeOAuthClient {
  return new NodeOAuthClient({
    // Everything the client asks (handles, DID documents, the PDS's and its authorization
    // server's metadata, PAR, tokens, and the session's own calls) goes to addresses that
    // DID documents and handles name: the guarded fetch, public addresses only (loopback
    // only on the local network), never a redirect (PAR and token POSTs leave redirects
    // at fetch's default).
    fetch: withoutRedirects(createPeerFetch({ allowLoopbackPeers: opts.network.allowHttp, timeoutMs: 30_000, maxBytes: HOST_CALL_MAX_BYTES })),
    clientMetadata: clientMetadataFor(chooseClient({ buildClientId: BUILD_CLIENT_ID, localNetwork: opts.network.allowHttp }), opts.scope, opts.port),
    sessionStore: opts.sessionStore,
    stateStore: opts.stateStore,
    requestLock: requestLocalLock,
    allowHttp: opts.network.allowHttp,
    ...(opts.network.handleResolverUrl ? { handleResolver: opts.network.handleResolverUrl } : {}),
    ...(opts.network.plcUrl ? { plcDirectoryUrl: opts.network.plcUrl } : {}),
  })
}
