import {
  atprotoLoopbackClientMetadata,
  isOAuthClientIdLoopback,
  oauthClientMetadataSchema,
  parseOAuthDiscoverableClientId,
  type OAuthClientMetadata,
} from '@atproto/oauth-types'
import { oauthError } from './errors.js'

/** A client's metadata as this host uses it: validated, `client_name`/`client_uri` optional. */
export type ClientMetadata = OAuthClientMetadata & { client_id: string }

const MAX_CLIENT_ID_LENGTH = 2048
const LOOPBACK_IPS = new Set(['127.0.0.1', '[::1]'])

/**
 * The metadata of the client `clientId` names, checked as atproto OAuth requires:
 * - `http://localhost…` development clients: built from the client ID's own query
 *   (`redirect_uri`, `scope`), as atproto's authorization servers do;
 * - other client IDs must be https URLs whose document (fetched with `fetch`, the host's
 *   SSRF-guarded peer fetch) parses as client metadata, names itself as `client_id`,
 *   and describes a public client that binds its tokens with DPoP.
 * Anything else is `invalid_client`.
 */
export async function loadClientMetadata(clientId: unknown, fetch: typeof globalThis.fetch): Promise<ClientMetadata> {
  if (typeof clientId !== 'string' || !clientId) throw oauthError('invalid_request', 'client_id is required')
  if (clientId.length > MAX_CLIENT_ID_LENGTH) throw oauthError('invalid_client', 'client_id is too long')
  let metadata: OAuthClientMetadata
  if (isOAuthClientIdLoopback(clientId)) {
    try {
      metadata = oauthClientMetadataSchema.parse(atprotoLoopbackClientMetadata(clientId))
    } catch (err) {
      throw oauthError('invalid_client', `The development client ID is not valid: ${firstLine(err)}`)
    }
  } else {
    metadata = await fetchClientDocument(clientId, fetch)
  }
  checkClientShape(metadata)
  return { ...metadata, client_id: clientId }
}

async function fetchClientDocument(clientId: string, fetch: typeof globalThis.fetch): Promise<OAuthClientMetadata> {
  let url: URL
  try {
    url = parseOAuthDiscoverableClientId(clientId)
  } catch (err) {
    throw oauthError('invalid_client', `client_id must be http://localhost (development) or the https URL of a client metadata document: ${firstLine(err)}`)
  }
  let json: unknown
  try {
    const res = await fetch(url, { redirect: 'error', headers: { accept: 'application/json' } })
    if (res.status !== 200) throw new Error(`it answered ${res.status}`)
    json = await res.json()
  } catch (err) {
    throw oauthError('invalid_client', `The client metadata document at ${clientId} could not be fetched: ${firstLine(err)}`)
  }
  const parsed = oauthClientMetadataSchema.safeParse(json)
  if (!parsed.success) throw oauthError('invalid_client', `The client metadata document is not valid: ${firstLine(parsed.error)}`)
  if (parsed.data.client_id !== clientId) throw oauthError('invalid_client', 'The client metadata document must name its own URL as client_id')
  return parsed.data
}

/**
 * What this host requires of every client: a public client (this host authenticates no
 * client keys, see docs/host.md), the code flow with DPoP-bound tokens, `atproto` in
 * its scope, and redirect URIs of the kind its application type may use.
 */
function checkClientShape(m: OAuthClientMetadata): void {
  if (m.token_endpoint_auth_method !== 'none') {
    throw oauthError('invalid_client', 'This host accepts public clients only (token_endpoint_auth_method "none")')
  }
  if (m.dpop_bound_access_tokens !== true) throw oauthError('invalid_client', 'The client must declare dpop_bound_access_tokens: true')
  if (!m.grant_types.includes('authorization_code')) throw oauthError('invalid_client', 'The client must use the authorization_code grant')
  if (!m.response_types.includes('code')) throw oauthError('invalid_client', 'The client must use response_type "code"')
  if (!m.scope?.split(' ').includes('atproto')) throw oauthError('invalid_client', 'The client\'s scope must include "atproto"')
  for (const uri of m.redirect_uris) {
    const url = new URL(uri)
    const ok =
      m.application_type === 'native'
        ? (url.protocol === 'http:' && LOOPBACK_IPS.has(url.hostname)) || !['http:', 'https:'].includes(url.protocol)
        : url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_IPS.has(url.hostname))
    if (!ok) throw oauthError('invalid_client', `The redirect URI ${uri} is not allowed for a ${m.application_type} client`)
  }
}

/**
 * Whether `uri` is one of the client's redirect URIs. A loopback IP redirect matches on
 * any port (RFC 8252 section 7.3): native apps listen on a port chosen per sign-in.
 */
export function allowsRedirect(m: ClientMetadata, uri: string): boolean {
  if (m.redirect_uris.includes(uri as (typeof m.redirect_uris)[number])) return true
  let asked: URL
  try {
    asked = new URL(uri)
  } catch {
    return false
  }
  if (asked.protocol !== 'http:' || !LOOPBACK_IPS.has(asked.hostname)) return false
  return m.redirect_uris.some((registered) => {
    const r = new URL(registered)
    return r.protocol === 'http:' && r.hostname === asked.hostname && r.pathname === asked.pathname && r.search === asked.search
  })
}

/** The page's name for the app: its `client_name`, else the client ID's host. */
export function clientDisplayName(m: ClientMetadata): string {
  if (m.client_name) return m.client_name
  return isOAuthClientIdLoopback(m.client_id) ? 'An app on this computer (development client)' : new URL(m.client_id).host
}

const firstLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300)
