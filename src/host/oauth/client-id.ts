import { extractUrlPath, isConventionalOAuthClientId, isLocalHostname, isOAuthClientIdLoopback, parseOAuthDiscoverableClientId } from '@atproto/oauth-types'
import { oauthError } from './errors.js'

const MAX_CLIENT_ID_LENGTH = 2048

/**
 * What a client ID is: atproto's `http://localhost…` development client (its metadata is
 * its own query), or the URL of a client metadata document the host fetches.
 */
export type ClientId = { kind: 'loopback'; id: string } | { kind: 'document'; id: string; url: URL }

export interface ClientIdRules {
  /**
   * The host's `--allow-loopback-peers` (development only): client documents may also be
   * served over plain http from 127.0.0.1, as everything on the local network is. No
   * https client ID can point there, so without this nothing on that network could
   * stand in for a published client.
   */
  allowLoopbackDocuments: boolean
}

/**
 * The kind of client `clientId` names, checked without fetching anything (so it can come
 * before the DPoP proof, the fetch after): a development client ID, or the https URL of a
 * document as `@atproto/oauth-provider` takes it (`@atproto/oauth-types`' discoverable
 * client ID: no IP, credentials or fragment, a path, canonical form; and no local
 * domain such as `.test` or `.example`). Anything else is `invalid_client`.
 */
export function parseClientId(clientId: unknown, rules: ClientIdRules): ClientId {
  if (typeof clientId !== 'string' || !clientId) throw oauthError('invalid_request', 'client_id is required')
  if (clientId.length > MAX_CLIENT_ID_LENGTH) throw oauthError('invalid_client', 'client_id is too long')
  if (isOAuthClientIdLoopback(clientId)) return { kind: 'loopback', id: clientId }
  if (rules.allowLoopbackDocuments && isLoopbackDocumentId(clientId)) return { kind: 'document', id: clientId, url: new URL(clientId) }
  let url: URL
  try {
    url = parseOAuthDiscoverableClientId(clientId)
    if (isLocalHostname(url.hostname)) throw new Error('its domain is a local name, which no one can prove to own')
  } catch (err) {
    throw oauthError('invalid_client', `client_id must be http://localhost (development) or the https URL of a client metadata document: ${reason(err)}`)
  }
  return { kind: 'document', id: clientId, url }
}

/** `http://127.0.0.1:<port>/<path>` in canonical form: a document on the local network. */
function isLoopbackDocumentId(clientId: string): boolean {
  if (!clientId.startsWith('http://127.0.0.1')) return false
  let url: URL
  try {
    url = new URL(clientId)
  } catch {
    return false
  }
  return url.hostname === '127.0.0.1' && !url.username && !url.password && !url.hash && url.pathname !== '/' && !url.pathname.endsWith('/') && extractUrlPath(clientId) === url.pathname
}

/**
 * How the pages name the app: by what the host checked, its client ID's host (the app
 * proves it by serving its document there), never by the name or address the app's
 * document claims for itself. This is `@atproto/oauth-provider`'s page for a client it
 * does not trust: the host alone for a conventional ID (`https://<host>/oauth-client-metadata.json`),
 * otherwise the whole ID too, since one host may serve any number of client documents.
 */
export function clientLabel(clientId: string): ClientLabel {
  // A development client's metadata is fixed by atproto (its ID's query carries only a
  // redirect and a scope): it cannot name itself, so the pages say what it is.
  if (isOAuthClientIdLoopback(clientId)) {
    return { name: 'An app on this computer', inSentence: 'an app on this computer', note: 'A development build: it cannot prove its name, so none is shown.' }
  }
  const url = new URL(clientId)
  return isConventionalOAuthClientId(clientId) ? { name: url.host, inSentence: url.host } : { name: url.host, inSentence: url.host, address: clientId }
}

/** How the pages name an app: at the start of a line, inside a sentence, and what more to say of it. */
export interface ClientLabel {
  name: string
  /** The same within a sentence ("Let an app on this computer act as …?"). */
  inSentence: string
  /** Its whole client ID, when its host alone does not name it. */
  address?: string
  /** Why it is named as it is (a development client has no name to show). */
  note?: string
}

/** Why something was refused, in one short line (a zod error's issues rather than its JSON). */
export function reason(err: unknown): string {
  const issues = (err as { issues?: { path?: unknown[]; message: string }[] } | undefined)?.issues
  let text = Array.isArray(issues)
    ? issues.map((i) => (i.path?.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ')
    : err instanceof Error
      ? err.message
      : String(err)
  // "Unable to parse response as JSON" says less than what stopped the parse ("Response too large").
  if (err instanceof Error && err.cause instanceof Error) text = `${text} (${err.cause.message})`
  return text.split('\n')[0]!.slice(0, 300)
}
