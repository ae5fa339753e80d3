import { NodeOAuthClient, requestLocalLock, type NodeSavedSession, type NodeSavedState } from '@atproto/oauth-client-node'
import type { OAuthClientMetadataInput } from '@atproto/oauth-client'
import type { HostDb } from '../db/index.js'
import type { HostContext } from '../context.js'
import { nowS } from './secrets.js'
import { seal, unseal } from '../secrets/sealed.js'
import { withoutRedirects } from '../../node/safe-fetch.js'
import { upstreamIdentity } from './upstream-identity.js'

export const UPSTREAM_CALLBACK_PATH = '/oauth/upstream/callback'
export const UPSTREAM_CLIENT_METADATA_PATH = '/oauth/client-metadata.json'

/** How long the host keeps a sign-in at someone's PDS that was started and not finished. */
const UPSTREAM_STATE_TTL_S = 15 * 60
/** The host never keeps a person's session: it signs out as soon as it knows who they are. */
const UPSTREAM_SESSION_TTL_S = 5 * 60

const isLoopbackHost = (url: URL) => ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname)

/**
 * The host as an atproto OAuth client at people's own PDSes, asking only `atproto`: all
 * it needs is to learn, with their PDS's word for it, which DID is at the keyboard.
 * On plain http loopback (the local network) it is a development client
 * (`http://localhost?redirect_uri=…`), which the PDS accepts without a published
 * document; elsewhere its client ID is its own metadata document, served by the host.
 */
export function upstreamClientMetadata(publicUrl: string): OAuthClientMetadataInput {
  const base = new URL(publicUrl)
  const common: Omit<OAuthClientMetadataInput, 'client_id' | 'redirect_uris'> = {
    scope: 'atproto',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    dpop_bound_access_tokens: true,
  }
  if (base.protocol === 'http:' && isLoopbackHost(base)) {
    // Loopback redirects must name an IP (RFC 8252 section 7.3).
    const callback = new URL(UPSTREAM_CALLBACK_PATH, base)
    if (callback.hostname === 'localhost') callback.hostname = '127.0.0.1'
    return {
      ...common,
      client_id: `http://localhost?redirect_uri=${encodeURIComponent(callback.href)}&scope=atproto`,
      redirect_uris: [callback.href],
      application_type: 'native',
    }
  }
  return {
    ...common,
    client_id: new URL(UPSTREAM_CLIENT_METADATA_PATH, base).href,
    client_name: `Group host ${base.host}`,
    client_uri: base.origin,
    redirect_uris: [new URL(UPSTREAM_CALLBACK_PATH, base).href],
    application_type: 'web',
  }
}

/**
 * `@atproto/oauth-client-node`'s stores, in the database: any host process may finish a
 * sign-in another began. Values hold DPoP private keys and tokens, so they are sealed
 * with the host key like every other stored key (src/host/secrets); one sealed with a
 * key since rotated away reads as absent (the sign-in in progress starts over).
 */
function dbStore<V>(db: HostDb, hostKey: Buffer, prefix: string, ttl: number) {
  const context = (key: string) => `oauth_upstream:${prefix}:${key}`
  return {
    async get(key: string): Promise<V | undefined> {
      const row = await db.selectFrom('oauth_upstream').select(['value', 'expiresAt']).where('key', '=', `${prefix}:${key}`).executeTakeFirst()
      if (!row || row.expiresAt <= nowS()) return undefined
      try {
        return JSON.parse(unseal(hostKey, row.value, context(key)).toString('utf8')) as V
      } catch {
        return undefined
      }
    },
    async set(key: string, value: V): Promise<void> {
      const row = { key: `${prefix}:${key}`, value: seal(hostKey, Buffer.from(JSON.stringify(value)), context(key)), expiresAt: nowS() + ttl }
      await db
        .insertInto('oauth_upstream')
        .values(row)
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: row.value, expiresAt: row.expiresAt }))
        .execute()
      await db.deleteFrom('oauth_upstream').where('expiresAt', '<', nowS()).execute()
    },
    async del(key: string): Promise<void> {
      await db.deleteFrom('oauth_upstream').where('key', '=', `${prefix}:${key}`).execute()
    },
  }
}

/**
 * The host's OAuth client at people's PDSes. What a person types decides where it
 * connects (their DID document, their PDS's metadata, the PAR and token endpoints named
 * there), so every request goes through the host's guards: DIDs and handles through
 * the host's own resolvers (upstream-identity.ts), everything else through the peer
 * fetch (loopback only with --allow-loopback-peers; private and link-local never;
 * time and size capped), and no redirect is followed on any of them.
 */
export function createUpstreamClient(ctx: HostContext): NodeOAuthClient {
  const cfg = ctx.config
  return new NodeOAuthClient({
    clientMetadata: upstreamClientMetadata(cfg.publicUrl),
    stateStore: dbStore<NodeSavedState>(ctx.db, cfg.hostKey, 'state', UPSTREAM_STATE_TTL_S),
    sessionStore: dbStore<NodeSavedSession>(ctx.db, cfg.hostKey, 'session', UPSTREAM_SESSION_TTL_S),
    // The host reads a person's session once, right after the callback, and never
    // refreshes it, so no two processes race for one refresh token: a process-local lock
    // is enough (without one the client warns on stdout, which must stay JSON lines).
    requestLock: requestLocalLock,
    // Plain http only where peers may be on loopback: the local network.
    allowHttp: cfg.allowLoopbackPeers,
    fetch: withoutRedirects(ctx.peerFetch),
    ...upstreamIdentity(ctx.idResolver, cfg.handleResolverUrl),
  })
}
