import type { IdResolver } from '@atproto/identity'
import type { HostDb } from './db/index.js'
import type { ServiceIdentity } from './identity/service-identity.js'
import type { HostConfig } from './config.js'
import type { GroupAuth } from './auth/group-auth.js'
import type { Logger } from 'pino'
import type { VerifiedTokenCache } from './auth/verified-tokens.js'
import type { ChangeStreams } from './stream/service.js'

/**
 * Everything a route may use; built once at start (server.ts). Only the routes (api/**,
 * the OAuth pages in oauth/) and the server wiring see it: domain modules and auth checks
 * declare the few parts they need (GroupLookup, ServiceAuthDeps, ...), which this satisfies.
 */
export interface HostContext {
  version: string
  config: HostConfig
  db: HostDb
  identity: ServiceIdentity
  idResolver: IdResolver
  /** DPoP proofs and group-credential tokens (getGroupAuth and group writes). */
  groupAuth: GroupAuth
  /** JSON lines on stdout (src/host/log); never give it tokens, proofs, keys or bodies. */
  logger: Logger
  /**
   * The fetch for members' PDSes and other peers found in DID documents: SSRF-guarded,
   * loopback only with `--allow-loopback-peers` (src/node/safe-fetch.ts). Pass `redirect`.
   */
  peerFetch: typeof globalThis.fetch
  /** Service-auth tokens whose signature was checked (auth/verified-tokens.ts); absent: check every time. */
  verifiedTokens?: VerifiedTokenCache
  /** The change stream (src/host/stream): the feed of the log and the open streams; absent before serving. */
  changeStreams?: ChangeStreams
}
