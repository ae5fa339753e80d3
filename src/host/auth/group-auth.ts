import { AuthRequiredError, type MethodAuthContext } from '@atproto/xrpc-server'
import type { HostDb } from '../db/index.js'
import type { HostContext } from '../context.js'
import { refuse } from '../errors.js'
import { DpopNonce, DpopVerifier } from './dpop.js'
import { GroupTokens, type GroupGrant } from './group-token.js'
import { serviceAuth } from './service-auth.js'
import { randomSecret } from '../secrets/stored-secrets.js'
import { noteCaller } from '../log/request-log.js'

/** DPoP checking and group-credential tokens: what `getGroupAuth` and group writes use. */
export interface GroupAuth {
  dpop: DpopVerifier
  tokens: GroupTokens
}

/** The DPoP nonce and token secrets are 32 random bytes each, sealed in `host_secret`. */
export async function loadGroupAuth(db: HostDb, opts: { publicUrl: string; serviceDid: string; hostKey: Buffer }): Promise<GroupAuth> {
  const nonces = new DpopNonce(await randomSecret(db, opts.hostKey, 'dpopNonceSecret'))
  return {
    dpop: new DpopVerifier(db, nonces, opts.publicUrl),
    tokens: new GroupTokens(await randomSecret(db, opts.hostKey, 'groupTokenSecret'), opts.serviceDid),
  }
}

export interface DpopServiceAuthCredentials {
  credentials: { did: string; jkt: string }
}

/**
 * `getGroupAuth`'s auth (spec section 5): service auth as for every host method (401
 * when bad), and a DPoP proof of a key the grant will be bound to.
 */
export function serviceAuthWithDpop(ctx: HostContext) {
  const service = serviceAuth(ctx)
  return async (auth: MethodAuthContext): Promise<DpopServiceAuthCredentials> => {
    const { credentials } = await service(auth)
    const proof = await ctx.groupAuth.dpop.verify(auth.req, auth.res)
    return { credentials: { did: credentials.did, jkt: proof.jkt } }
  }
}

export interface GroupCredentials {
  credentials: GroupGrant
}

/**
 * Auth for writes made with a group credential (spec section 5.5):
 * `Authorization: DPoP <accessJwt>` and a proof by the key the token is bound to,
 * carrying `ath`. What the grant allows is checked by the method against the request.
 */
export function groupCredentialAuth(ctx: HostContext) {
  return async ({ req, res }: MethodAuthContext): Promise<GroupCredentials> => {
    const { dpop, tokens } = ctx.groupAuth
    const match = /^DPoP\s+(\S+)$/i.exec(req.headers.authorization ?? '')
    if (!match) {
      throw new AuthRequiredError('This needs a group credential: "Authorization: DPoP <accessJwt from example.groups.getGroupAuth>"', 'AuthMissing')
    }
    const token = match[1]!
    const grant = await tokens.verify(token)
    const proof = await dpop.verify(req, res, { accessToken: token })
    if (proof.jkt !== grant.jkt) {
      throw refuse('InvalidDpop', 'The DPoP proof is signed by another key than the one this credential is bound to')
    }
    noteCaller(res, grant.actor)
    return { credentials: grant }
  }
}
