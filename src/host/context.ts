import type { IdResolver } from '@atproto/identity'
import type { HostDb } from './db/index.js'
import type { ServiceIdentity } from './identity/service-identity.js'
import type { HostConfig } from './config.js'
import type { GroupAuth } from './auth/group-auth.js'

/** Everything a method handler may use; built once at start. */
export interface HostContext {
  version: string
  config: HostConfig
  db: HostDb
  identity: ServiceIdentity
  idResolver: IdResolver
  /** DPoP proofs and group-credential tokens (getGroupAuth and group writes). */
  groupAuth: GroupAuth
}
