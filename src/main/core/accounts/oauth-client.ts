import { NodeOAuthClient, type NodeSavedSessionStore, type NodeSavedStateStore } from '@atproto/oauth-client-node'
import { requestLocalLock } from '@atproto/oauth-client'
import type { OAuthClientMetadataInput } from '@atproto/oauth-client'

/** Where people's identities live: the real network, or `npm run stack`'s. */
export interface IdentityNetwork {
  /** PLC directory; the real one when undefined. */
  plcUrl?: string
  /** Resolves handles (a PDS's resolveHandle); DNS and .well-known when undefined. */
  handleResolverUrl?: string
  /** Only the local network is plain http. */
  allowHttp: boolean
}

/**
 * The atproto "loopback client" (a native app, RFC 8252): its client_id is
 * `http://localhost` with the scope and a port-less redirect in the query; the real
 * redirect is `http://127.0.0.1:<port>/callback` on a port chosen per sign-in.
 */
export function loopbackClientMetadata(scope: string, port?: number): OAuthClientMetadataInput {
  const portless = 'http://127.0.0.1/callback'
  return {
    client_id: `http://localhost?redirect_uri=${encodeURIComponent(portless)}&scope=${encodeURIComponent(scope)}`,
    redirect_uris: [port ? `http://127.0.0.1:${port}/callback` : portless],
    scope,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    application_type: 'native',
    dpop_bound_access_tokens: true,
  }
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
    clientMetadata: loopbackClientMetadata(opts.scope, opts.port),
    sessionStore: opts.sessionStore,
    stateStore: opts.stateStore,
    requestLock: requestLocalLock,
    allowHttp: opts.network.allowHttp,
    ...(opts.network.handleResolverUrl ? { handleResolver: opts.network.handleResolverUrl } : {}),
    ...(opts.network.plcUrl ? { plcDirectoryUrl: opts.network.plcUrl } : {}),
  })
}
