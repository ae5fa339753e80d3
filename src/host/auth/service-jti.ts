import { AuthRequiredError } from '@atproto/xrpc-server'
import type { HostDb } from '../db/index.js'
import type { VerifiedServiceAuth } from './service-auth.js'

const PRUNE_EVERY_MS = 60_000
const MAX_JTI_LENGTH = 256

/**
 * Service-auth tokens accepted once (decisions section 6.2): `getGroupAuth` turns a token
 * into a credential bound to one DPoP key, so a captured token must not yield a second
 * credential for another key. A token's `jti` (the PDS sets a random one on every
 * token) is remembered in the database until the token's `exp`, after which the token
 * is refused as expired anyway: the memory survives restarts and is shared by every
 * process serving the database.
 */
export class OneTimeServiceTokens {
  private lastPrune = 0

  constructor(private readonly db: HostDb) {}

  /** Accepts the token's first use; 401 for a token without `jti` or one used before. */
  async consume(token: VerifiedServiceAuth): Promise<void> {
    if (typeof token.jti !== 'string' || !token.jti || token.jti.length > MAX_JTI_LENGTH) {
      throw new AuthRequiredError('This method takes a service-auth token with a "jti", accepted once: mint a fresh one with getServiceAuth', 'BadJwt')
    }
    await this.prune()
    const res = await this.db
      .insertInto('service_jti')
      // Per issuer: one caller's ids cannot use up another's.
      .values({ jti: `${token.did} ${token.jti}`, expiresAt: token.exp })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst()
    if (Number(res.numInsertedOrUpdatedRows) === 0) {
      throw new AuthRequiredError(
        'This service-auth token was used before: a token for example.groups.getGroupAuth is accepted once; mint a fresh one with getServiceAuth for every call',
        'TokenAlreadyUsed',
      )
    }
  }

  private async prune(): Promise<void> {
    const now = Date.now()
    if (now - this.lastPrune < PRUNE_EVERY_MS) return
    this.lastPrune = now
    await this.db.deleteFrom('service_jti').where('expiresAt', '<', Math.floor(now / 1000)).execute()
  }
}
