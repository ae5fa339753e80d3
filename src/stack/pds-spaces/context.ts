import type { AppContext } from '@atproto/pds'
import type { IdResolver } from '@atproto/identity'
import { InvalidRequestError } from '@atproto/xrpc-server'
import type { Server } from '../../node/lexicon/index.js'
import type { SpaceStore } from './store.js'

/** What each space route may use: the PDS's own context, our store, a log line sink. */
export interface SpacesContext {
  pds: AppContext
  /**
   * Ours, not the PDS's: the PDS's resolver fetches with its SSRF-safe fetch, which
   * refuses an IP address as host name, and the local PLC is at 127.0.0.1.
   */
  idResolver: IdResolver
  store: SpaceStore
  log: (line: string) => void
}

export type RegisterSpaceRoute = (server: Server, ctx: SpacesContext) => void

/**
 * The PDS's own session check, as its `com.atproto.repo.*` routes use it: a password
 * session's access token (`Bearer`) or an OAuth session's DPoP-bound token. Taken-down
 * and deactivated accounts write nothing. What an OAuth session may write depends on
 * the request body, so, as in the PDS's putRecord, scopes are checked in the handler.
 */
export function sessionAuth(ctx: SpacesContext) {
  return ctx.pds.authVerifier.authorization({
    checkTakedown: true,
    checkDeactivated: true,
    authorize: () => {},
  })
}

type SessionAuth = Exclude<Awaited<ReturnType<ReturnType<typeof sessionAuth>>>, { status: number }>
export type SessionCredentials = SessionAuth['credentials']

/** Members write (and read back) only their own records: `repo` is the session's DID. */
export function assertOwnRepo(credentials: SessionCredentials, repo: string): void {
  if (repo !== credentials.did) {
    throw new InvalidRequestError(`repo must be your own DID (${credentials.did}): a member writes only to their own repo`)
  }
}

/**
 * An OAuth session writes only the collections its scope allows (spec section 4,
 * "the session scope must allow the collection"); the PDS answers 403
 * `ScopeMissingError` naming the missing `repo:` scope. Password sessions carry full
 * access, as on the PDS's own repo routes.
 */
export function assertRepoScope(credentials: SessionCredentials, collection: string, actions: ('create' | 'update' | 'delete')[]): void {
  if (credentials.type !== 'oauth') return
  for (const action of actions) credentials.permissions.assertRepo({ action, collection })
}
