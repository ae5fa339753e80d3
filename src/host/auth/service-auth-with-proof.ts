import type { MethodAuthContext } from '@atproto/xrpc-server'
import type { GroupAuth } from './group-auth.js'
import { verifyServiceAuth, type ServiceAuthDeps } from './service-auth.js'
import { noteCaller } from '../log/request-log.js'

export interface DpopServiceAuthCredentials {
  credentials: { did: string; jkt: string }
}

/**
 * `getGroupAuth`'s auth (spec section 5): service auth as for every host method (401
 * when bad), and a DPoP proof of a key the grant will be bound to (400 `DpopRequired`
 * or `InvalidDpop` when bad, as the spec says for this method).
 *
 * The service-auth token is taken once (decisions section 6.2), and only once the proof
 * has passed: a nonce challenge must leave it usable for the retry the spec prescribes.
 */
export function serviceAuthWithDpop(ctx: ServiceAuthDeps & { groupAuth: Pick<GroupAuth, 'dpop' | 'oneTimeTokens'> }) {
  return async ({ req, res }: MethodAuthContext): Promise<DpopServiceAuthCredentials> => {
    const service = await verifyServiceAuth(ctx, req)
    noteCaller(res, service.did)
    const proof = await ctx.groupAuth.dpop.verify(req, res, { checker: 'getGroupAuth' })
    try {
      await ctx.groupAuth.oneTimeTokens.consume(service)
    } catch (err) {
      // The accepted proof set the next nonce; a 401 carrying one would read as "retry
      // with this nonce", which cannot help a spent token.
      res.removeHeader('DPoP-Nonce')
      throw err
    }
    return { credentials: { did: service.did, jkt: proof.jkt } }
  }
}
