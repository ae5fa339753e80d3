import type { HostDb } from '../db/index.js'
import type { OAuthRequestTable } from '../db/schema.js'
import { oauthError } from './errors.js'
import { nowS } from './secrets.js'
import type { ClientMetadata } from './client-metadata.js'

/** A pushed request may be used for 10 minutes: long enough to sign in and consent. */
export const PAR_TTL_S = 10 * 60
/** An authorization code is exchanged within a minute, or not at all. */
export const CODE_TTL_S = 60

const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:'

/** The authorization request's parameters the host keeps (checked at PAR). */
export interface RequestParams {
  redirect_uri: string
  state?: string
  scope: string
  code_challenge: string
  response_mode: 'query' | 'fragment'
  login_hint: string
}

export interface PendingRequest extends Omit<OAuthRequestTable, 'clientMetadata' | 'params'> {
  params: RequestParams
}

// The pages name the app by its client ID alone (client-id.ts): nothing of its metadata is read back.
const decode = ({ clientMetadata: _, ...row }: OAuthRequestTable): PendingRequest => ({
  ...row,
  params: JSON.parse(row.params) as RequestParams,
})

/**
 * What a request keeps of its client's metadata: PAR has checked the request against
 * it, and the pages name the app by its client ID, so only that and the kind of app,
 * never the document itself (up to 64 kB, most of it whatever the app chose to put there).
 */
export const storedClient = (m: ClientMetadata) => JSON.stringify({ client_id: m.client_id, application_type: m.application_type })

/**
 * The request a `request_uri` names, while it may still be used; `invalid_request_uri`
 * (RFC 9126 section 4) otherwise. Codes already issued end its use on the pages.
 */
export async function loadRequest(db: HostDb, requestUri: unknown): Promise<PendingRequest> {
  if (typeof requestUri !== 'string' || !requestUri.startsWith(REQUEST_URI_PREFIX) || requestUri.length > 200) {
    throw oauthError('invalid_request_uri', 'request_uri must be one this host returned from its PAR endpoint')
  }
  const row = await db.selectFrom('oauth_request').selectAll().where('id', '=', requestUri.slice(REQUEST_URI_PREFIX.length)).executeTakeFirst()
  if (!row || row.codeHash) throw oauthError('invalid_request_uri', 'This sign-in request is unknown or was already used: start again from the app')
  if (row.expiresAt <= nowS()) throw oauthError('invalid_request_uri', 'This sign-in request has expired: start again from the app')
  return decode(row)
}

export const requestUriOf = (id: string) => `${REQUEST_URI_PREFIX}${id}`

export async function pruneRequests(db: HostDb): Promise<void> {
  await db.deleteFrom('oauth_request').where('expiresAt', '<', nowS()).execute()
}
