import { AuthRequiredError, type MethodAuthContext } from '@atproto/xrpc-server'
import type { HostDb } from '../db/index.js'
import type { HostContext } from '../context.js'
import { DpopVerifier } from './dpop.js'
import { challenged } from './dpop-answers.js'
import { GroupTokens } from './group-token.js'
import { OAuthAccessTokens } from '../oauth/access-token.js'
import { RefreshTokens } from '../oauth/refresh-tokens.js'
import { liveSession } from '../oauth/sessions.js'
import { spaceScopesOf } from '../oauth/space-scopes.js'
import { GRANTED_ACTIONS } from '../spaces/scope.js'
import type { WriteGrant } from '../spaces/group-writes.js'
import { verifyServiceAuth } from './service-auth.js'
import { OneTimeServiceTokens } from './service-jti.js'
import { randomSecret } from '../secrets/stored-secrets.js'
import { noteCaller } from '../log/request-log.js'

/** DPoP checking and group-credential tokens: what `getGroupAuth` and group writes use. */
export interface GroupAuth {
  dpop: DpopVerifier
  tokens: GroupTokens
  /** Access tokens of group sessions from the OAuth sign-in (src/host/oauth). */
  oauthTokens: OAuthAccessTokens
  /** Their refresh tokens, which the host recognises even once rotated out (reuse ends the session). */
  oauthRefreshTokens: RefreshTokens
  /** `getGroupAuth` takes each service-auth token once. */
  oneTimeTokens: OneTimeServiceTokens
}

/** The DPoP nonce and token secrets are 32 random bytes each, sealed in `host_secret`. */
export async function loadGroupAuth(db: HostDb, opts: { publicUrl: string; serviceDid: string; hostKey: Buffer }): Promise<GroupAuth> {
  return {
    dpop: new DpopVerifier(db, await randomSecret(db, opts.hostKey, 'dpopNonceSecret'), opts.publicUrl),
    tokens: new GroupTokens(await randomSecret(db, opts.hostKey, 'groupTokenSecret'), opts.serviceDid),
    oauthTokens: new OAuthAccessTokens(await randomSecret(db, opts.hostKey, 'oauthTokenSecret'), new URL(opts.publicUrl).origin),
    oauthRefreshTokens: new RefreshTokens(await randomSecret(db, opts.hostKey, 'oauthRefreshSecret')),
    oneTimeTokens: new OneTimeServiceTokens(db),
  }
}

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
export function serviceAuthWithDpop(ctx: HostContext) {
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

export interface GroupCredentials {
  credentials: WriteGrant
}

/**
 * Auth for writes made with a group credential (spec section 5.5):
 * `Authorization: DPoP <accessJwt>` and a proof by the key the token is bound to,
 * carrying `ath`. What the grant allows is checked by the method against the request.
 * The access token of a group session (the OAuth sign-in, decisions 6.6) is taken the
 * same way, with the same answers; its session must still be live (not revoked, not
 * ended), and the method re-checks the person's roles as for a credential.
 *
 * These routes consume tokens, so they answer as an RFC 9449 resource server (section
 * 7.1, decisions section 6.5): every refusal is a 401 with a `WWW-Authenticate: DPoP`
 * challenge, `invalid_token` for the access token and `invalid_dpop_proof` for the
 * proof, the body still `{error, message}`.
 */
export function groupCredentialAuth(ctx: HostContext) {
  return async ({ req, res }: MethodAuthContext): Promise<GroupCredentials> => {
    const { dpop } = ctx.groupAuth
    const match = /^DPoP\s+(\S+)$/i.exec(req.headers.authorization ?? '')
    if (!match) {
      // No credential of this kind at all: a challenge without an error code (RFC 6750 section 3.1).
      throw challenged(res, undefined, new AuthRequiredError('This needs a group credential: "Authorization: DPoP <accessJwt from example.groups.getGroupAuth>"', 'AuthMissing'))
    }
    const token = match[1]!
    const grant = await writeGrantOf(ctx, token).catch((err: unknown) => {
      throw challenged(res, 'invalid_token', err)
    })
    await dpop.verify(req, res, { checker: 'resource', accessToken: token, boundTo: grant.jkt })
    noteCaller(res, grant.actor)
    return { credentials: grant }
  }
}

/** What the token lets its holder write: a `getGroupAuth` credential's one space, or a session's `space:` scopes. */
async function writeGrantOf(ctx: HostContext, token: string): Promise<WriteGrant> {
  const { tokens, oauthTokens } = ctx.groupAuth
  if (!oauthTokens.claimsToBeOurs(token)) {
    const g = await tokens.verify(token)
    return { group: g.group, actor: g.actor, jkt: g.jkt, spaces: [{ space: g.space, collections: g.collections, actions: GRANTED_ACTIONS }] }
  }
  const claims = await oauthTokens.verify(token)
  const session = await liveSession(ctx.db, claims.sid)
  if (!session || session.groupDid !== claims.sub) throw new AuthRequiredError('This session has ended: sign in again', 'InvalidToken')
  const spaces = spaceScopesOf(claims.scope).filter((s) => s.authority === claims.sub)
  return { group: claims.sub, actor: session.personDid, jkt: claims.jkt, spaces }
}
