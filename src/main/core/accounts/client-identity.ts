import type { OAuthClientMetadataInput } from '@atproto/oauth-client'
import releaseDocument from '../../../../oauth/client-metadata.json' with { type: 'json' }

/**
 * Which OAuth client Convene signs in as. Release builds name a client ID URL at build
 * time (`CONVENE_OAUTH_CLIENT_ID`, replaced by electron.vite.config.ts's `define`); the
 * document published at that URL is `oauth/client-metadata.json`, imported here so the
 * app declares exactly what the servers will fetch. Without a build-time id (dev runs,
 * tests, the loopback shell) and always on the local network, the app stays atproto's
 * `http://localhost` development client, which needs nothing published.
 */
export type ClientChoice = { kind: 'release'; clientId: string } | { kind: 'development' }

/** The build-time client id ('' or undefined: none). */
export const BUILD_CLIENT_ID: string | undefined = process.env.CONVENE_OAUTH_CLIENT_ID || undefined

/** The committed metadata document (what must be served at the release client id). */
export const RELEASE_CLIENT_METADATA: OAuthClientMetadataInput = releaseDocument as OAuthClientMetadataInput

export function chooseClient(opts: { buildClientId: string | undefined; localNetwork: boolean }): ClientChoice {
  if (opts.localNetwork || !opts.buildClientId) return { kind: 'development' }
  return { kind: 'release', clientId: opts.buildClientId }
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
 * The release client's metadata for one sign-in: the published document, redirecting to
 * this sign-in's port (servers accept any port on a loopback IP redirect, RFC 8252 7.3).
 * A build whose id differs from the document's would send people to a client the
 * servers describe differently: refuse it rather than sign in half-configured.
 */
export function releaseClientMetadata(clientId: string, port?: number): OAuthClientMetadataInput {
  if (RELEASE_CLIENT_METADATA.client_id !== clientId) {
    throw new Error(
      `CONVENE_OAUTH_CLIENT_ID (${clientId}) is not the client_id of oauth/client-metadata.json (${RELEASE_CLIENT_METADATA.client_id})`,
    )
  }
  return {
    ...RELEASE_CLIENT_METADATA,
    redirect_uris: port ? [`http://127.0.0.1:${port}/callback`] : RELEASE_CLIENT_METADATA.redirect_uris,
  }
}

/** The metadata the oauth-client is created with for `choice`. */
export function clientMetadataFor(choice: ClientChoice, scope: string, port?: number): OAuthClientMetadataInput {
  return choice.kind === 'release' ? releaseClientMetadata(choice.clientId, port) : loopbackClientMetadata(scope, port)
}

/**
 * Scopes a sign-in would ask for that the client does not declare. Servers refuse those
 * outright; the development client declares whatever it asks for, the release client
 * only what its published document lists.
 */
export function undeclaredScopes(metadata: Pick<OAuthClientMetadataInput, 'scope'>, requested: string): string[] {
  const declared = new Set(metadata.scope?.split(' ') ?? [])
  return requested.split(' ').filter((s) => s && !declared.has(s))
}
