import { fetchJsonProcessor, fetchMaxSizeProcessor, fetchOkProcessor } from '@atproto-labs/fetch-node'
import { atprotoLoopbackClientMetadata, isLocalHostname, oauthClientMetadataSchema, type OAuthClientMetadata } from '@atproto/oauth-types'
import { oauthError } from './errors.js'
import { parseClientId, reason, type ClientId, type ClientIdRules } from './client-id.js'

/**
 * What the host keeps of a client's metadata once it is checked: what PAR checks a
 * request against. Nothing the app says about itself (name, address, logo) is kept:
 * the pages name an app by its client ID (client-id.ts `clientLabel`).
 */
export interface ClientMetadata {
  client_id: string
  application_type: 'web' | 'native'
  redirect_uris: string[]
  scope: string
}

/**
 * The largest client metadata document the host reads. A real one is a kilobyte or two
 * (the release app's, with its long scope, is under 2 kB); 64 kB leaves room for long
 * scope lists while a PAR cannot make the host read and parse half a megabyte.
 */
export const MAX_CLIENT_DOCUMENT_BYTES = 64 * 1024

const LOOPBACK_IPS = new Set(['127.0.0.1', '[::1]'])
const GRANT_TYPES = new Set(['authorization_code', 'refresh_token'])

/**
 * The checked metadata of the client `clientId` names: a development client's from its
 * own query, any other's fetched with `fetch` (the host's SSRF-guarded peer fetch).
 * Anything that does not pass is `invalid_client`.
 */
export async function loadClientMetadata(clientId: unknown, fetch: typeof globalThis.fetch, rules: ClientIdRules = { allowLoopbackDocuments: false }): Promise<ClientMetadata> {
  const id = parseClientId(clientId, rules)
  return validateClientMetadata(id, id.kind === 'loopback' ? loopbackMetadata(id.id) : await fetchClientDocument(id.url, fetch))
}

function loopbackMetadata(clientId: string): OAuthClientMetadata {
  try {
    return oauthClientMetadataSchema.parse(atprotoLoopbackClientMetadata(clientId))
  } catch (err) {
    throw oauthError('invalid_client', `The development client ID is not valid: ${reason(err)}`)
  }
}

/**
 * The document at `url`, as `@atproto/oauth-provider` fetches it: a 200 answer of type
 * `application/json`, no redirects, and no larger than `MAX_CLIENT_DOCUMENT_BYTES`
 * (counted as it arrives, whatever `Content-Length` says).
 */
export async function fetchClientDocument(url: URL, fetch: typeof globalThis.fetch): Promise<OAuthClientMetadata> {
  let json: unknown
  try {
    const res = await fetch(url, { redirect: 'error', headers: { accept: 'application/json' } })
    const ok = await fetchOkProcessor()(res)
    const bounded = await fetchMaxSizeProcessor(MAX_CLIENT_DOCUMENT_BYTES)(ok)
    ;({ json } = await fetchJsonProcessor('application/json', true)(bounded))
  } catch (err) {
    throw oauthError('invalid_client', `The client metadata document at ${url.href} could not be read: ${reason(err)}`)
  }
  const parsed = oauthClientMetadataSchema.safeParse(json)
  if (!parsed.success) throw oauthError('invalid_client', `The client metadata document is not valid: ${reason(parsed.error)}`)
  return parsed.data
}

const refuse = (message: string) => oauthError('invalid_client', message)
const duplicateIn = <T>(values: readonly T[]) => values.find((v, i) => values.indexOf(v) !== i)

/**
 * The rules `@atproto/oauth-provider`'s client manager (`validateClientMetadata` and its
 * loopback and discoverable variants) applies, in its order, with this host's one
 * narrowing: public clients only (it authenticates no client keys, see docs/host.md).
 */
export function validateClientMetadata(id: ClientId, m: OAuthClientMetadata): ClientMetadata {
  if (m.jwks && m.jwks_uri) throw refuse('jwks_uri and jwks are mutually exclusive')
  for (const k of ['default_max_age', 'userinfo_signed_response_alg', 'id_token_signed_response_alg', 'userinfo_encrypted_response_alg'] as const) {
    if (m[k] != null) throw refuse(`Unsupported "${k}" parameter`)
  }
  if (m.client_uri && isLocalHostname(new URL(m.client_uri).hostname)) throw refuse('client_uri hostname is invalid')

  const scopes = m.scope?.split(' ')
  if (!scopes) throw refuse('The client must declare its scope')
  if (!scopes.includes('atproto')) throw refuse('The client\'s scope must include "atproto"')
  const dupScope = duplicateIn(scopes)
  if (dupScope) throw refuse(`Duplicate scope "${dupScope}"`)
  const dupGrant = duplicateIn(m.grant_types)
  if (dupGrant) throw refuse(`Duplicate grant type "${dupGrant}"`)
  for (const grant of m.grant_types) {
    if (!GRANT_TYPES.has(grant)) throw refuse(`Grant type "${grant}" is not supported`)
  }
  if (m.client_id && m.client_id !== id.id) throw refuse('The client metadata document must name its own URL as client_id')
  if (m.subject_type && m.subject_type !== 'public') throw refuse('Only "public" subject_type is supported')
  if (m.token_endpoint_auth_method !== 'none') throw refuse('This host accepts public clients only (token_endpoint_auth_method "none")')
  if (m.token_endpoint_auth_signing_alg) throw refuse('token_endpoint_auth_method "none" must not have token_endpoint_auth_signing_alg')
  if (m.authorization_encrypted_response_enc) throw refuse('Encrypted authorization responses are not supported')
  if (m.tls_client_certificate_bound_access_tokens) throw refuse('Mutual-TLS bound access tokens are not supported')
  if (m.dpop_bound_access_tokens !== true) throw refuse('The client must declare dpop_bound_access_tokens: true')
  if (!m.response_types.includes('code')) throw refuse('response_types must include "code"')
  if (!m.grant_types.includes('authorization_code')) throw refuse('The "code" response type needs the authorization_code grant')
  if (m.authorization_details_types?.length) throw refuse('authorization_details_types are not supported')
  if (!m.redirect_uris.length) throw refuse('At least one redirect_uri is required')
  for (const uri of m.redirect_uris) checkRedirectUri(uri, m.application_type)

  if (id.kind === 'loopback') {
    if (m.client_uri) throw refuse('client_uri is not allowed for development clients')
    if (m.application_type !== 'native') throw refuse('Development clients must have application_type "native"')
  } else {
    if (!m.client_id) throw refuse('The client metadata document must name its own URL as client_id')
    if (m.client_uri) checkClientUri(m.client_uri, id.url)
    // atproto: a custom scheme is the client ID's host in reverse-domain order.
    const ownScheme = `${id.url.hostname.split('.').reverse().join('.')}:`
    for (const uri of m.redirect_uris) {
      const { protocol } = new URL(uri)
      if (isPrivateUseScheme(protocol) && protocol !== ownScheme) {
        throw refuse(`The redirect URI ${uri} uses a custom scheme that is not the client ID's domain in reverse order (${ownScheme})`)
      }
    }
  }
  return { client_id: id.id, application_type: m.application_type, redirect_uris: [...m.redirect_uris], scope: m.scope! }
}

/** client_uri must be on the client ID's origin, at or above the document's path. */
function checkClientUri(clientUri: string, idUrl: URL): void {
  const uri = new URL(clientUri)
  if (uri.origin !== idUrl.origin) throw refuse('client_uri must have the same origin as the client_id')
  const parent = uri.pathname.endsWith('/') ? uri.pathname : `${uri.pathname}/`
  if (uri.pathname !== idUrl.pathname && !idUrl.pathname.startsWith(parent)) throw refuse('client_uri must be a parent URL of the client_id')
}

const isPrivateUseScheme = (protocol: string) => protocol.includes('.')

/**
 * Which redirect URIs an app may register: loopback IPs over http for native apps only
 * (never `localhost`, RFC 8252 section 8.3), https on a public domain, and custom
 * schemes with a dot for native apps only.
 */
function checkRedirectUri(uri: string, applicationType: 'web' | 'native'): void {
  const url = new URL(uri)
  if (url.username || url.password) throw refuse(`The redirect URI ${uri} must not contain credentials`)
  if (url.hostname === 'localhost') throw refuse(`The loopback redirect URI ${uri} is not allowed (use 127.0.0.1 or [::1])`)
  if (LOOPBACK_IPS.has(url.hostname)) {
    if (applicationType !== 'native') throw refuse(`Loopback redirect URIs are only allowed for native apps (${uri})`)
    if (url.protocol !== 'http:') throw refuse(`The loopback redirect URI ${uri} must use http`)
  } else if (url.protocol === 'http:') {
    throw refuse(`Only loopback redirect URIs may use http (${uri})`)
  } else if (url.protocol === 'https:') {
    if (isLocalHostname(url.hostname)) throw refuse(`The redirect URI ${uri} must not be on a local domain name`)
  } else if (isPrivateUseScheme(url.protocol)) {
    if (applicationType !== 'native') throw refuse(`Custom-scheme redirect URIs are only allowed for native apps (${uri})`)
  } else {
    throw refuse(`The redirect URI scheme ${url.protocol} is not allowed`)
  }
}

/**
 * Whether `uri` is one of the client's redirect URIs. A loopback IP redirect matches on
 * any port (RFC 8252 section 7.3): native apps listen on a port chosen per sign-in.
 */
export function allowsRedirect(m: ClientMetadata, uri: string): boolean {
  if (m.redirect_uris.includes(uri)) return true
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
