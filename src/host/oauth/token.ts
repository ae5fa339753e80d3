import express from 'express'
import type { HostContext } from '../context.js'
import { viewerOf } from '../groups/access.js'
import { isOAuthClientIdLoopback } from '@atproto/oauth-types'
import { oauthEndpoint, oauthError } from './errors.js'
import { createSession, endSessionIfReused, isLive, liveSession, revokeSession, rotateRefreshToken, sessionByCode, sessionByRefreshToken } from './sessions.js'
import { hashToken, nowS, s256 } from './secrets.js'
import type { RequestParams } from './requests.js'
import type { OAuthSessionTable } from '../db/schema.js'

export const TOKEN_PATH = '/oauth/token'
export const REVOKE_PATH = '/oauth/revoke'

const MAX_PARAM_LENGTH = 2048
const REUSED = 'This refresh token was already used; the session it belongs to has ended (sign in again)'

function str(body: Record<string, unknown>, name: string): string {
  const value = body[name]
  if (typeof value !== 'string' || !value) throw oauthError('invalid_request', `${name} is required`)
  if (value.length > MAX_PARAM_LENGTH) throw oauthError('invalid_request', `${name} is too long`)
  return value
}

/** Whether the person still holds every role the session was granted with (and is still a member). */
async function rolesStillHeld(ctx: HostContext, session: Pick<OAuthSessionTable, 'groupDid' | 'personDid' | 'roles'>): Promise<boolean> {
  const viewer = await viewerOf(ctx.db, session.groupDid, session.personDid)
  const granted = JSON.parse(session.roles) as string[]
  return viewer.isMember && granted.every((r) => viewer.roles.includes(r))
}

async function tokenResponse(ctx: HostContext, session: Pick<OAuthSessionTable, 'id' | 'groupDid' | 'clientId' | 'scope' | 'jkt'>, refreshToken: string) {
  const { token, expiresIn } = await ctx.groupAuth.oauthTokens.mint({ sub: session.groupDid, sid: session.id, clientId: session.clientId, scope: session.scope, jkt: session.jkt })
  return { access_token: token, token_type: 'DPoP', expires_in: expiresIn, refresh_token: refreshToken, scope: session.scope, sub: session.groupDid }
}

/**
 * The token endpoint: `authorization_code` (PKCE S256, the DPoP key of the PAR, the same
 * redirect URI) and `refresh_token` (rotated; the DPoP key of the session). Tokens are
 * DPoP-bound, `token_type: DPoP`, `sub` the group DID, `scope` what was granted. A code
 * used twice revokes the session it made (RFC 6749 section 4.1.2), and so does a
 * refresh token used twice (RFC 9700 section 4.14.2). Every refresh re-checks the
 * person's roles: a role lost or the group left ends the session.
 */
async function token(ctx: HostContext, req: express.Request, res: express.Response): Promise<void> {
  const body = (req.body ?? {}) as Record<string, unknown>
  const clientId = str(body, 'client_id')
  const grantType = str(body, 'grant_type')
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
    throw oauthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token')
  }
  const proof = await ctx.groupAuth.dpop.verify(req, res, { checker: 'authServer' })

  if (grantType === 'authorization_code') {
    const codeHash = hashToken(str(body, 'code'))
    const request = await ctx.db.selectFrom('oauth_request').selectAll().where('codeHash', '=', codeHash).executeTakeFirst()
    if (!request) {
      const made = await sessionByCode(ctx.db, codeHash)
      if (made) await revokeSession(ctx.db, made.id)
      throw oauthError('invalid_grant', made ? 'This code was already used; the session it gave is revoked' : 'Unknown authorization code')
    }
    const params = JSON.parse(request.params) as RequestParams
    if (request.expiresAt <= nowS()) throw oauthError('invalid_grant', 'The authorization code has expired')
    if (request.clientId !== clientId) throw oauthError('invalid_grant', 'The code was issued to another client')
    if (str(body, 'redirect_uri') !== params.redirect_uri) throw oauthError('invalid_grant', 'redirect_uri differs from the authorization request')
    const verifier = str(body, 'code_verifier')
    if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || s256(verifier) !== params.code_challenge) {
      throw oauthError('invalid_grant', 'code_verifier does not match the code_challenge')
    }
    if (proof.jkt !== request.jkt) throw oauthError('invalid_dpop_proof', 'The DPoP key is not the one the authorization request was made with')
    // One exchange only: whoever deletes the row has the code.
    const taken = await ctx.db.deleteFrom('oauth_request').where('id', '=', request.id).where('codeHash', '=', codeHash).executeTakeFirst()
    if (Number(taken.numDeletedRows) !== 1) throw oauthError('invalid_grant', 'This code was already used')
    const granted = { groupDid: request.groupDid, personDid: request.personDid!, roles: request.roles! }
    if (!(await rolesStillHeld(ctx, granted))) throw oauthError('invalid_grant', 'The person no longer holds the roles this was granted with')
    const { id, refreshToken } = await createSession(ctx.db, ctx.groupAuth.oauthRefreshTokens, {
      ...granted,
      clientId,
      scope: request.scope!,
      jkt: proof.jkt,
      codeHash,
      development: isOAuthClientIdLoopback(clientId),
    })
    res.set('Cache-Control', 'no-store').json(await tokenResponse(ctx, { id, groupDid: request.groupDid, clientId, scope: request.scope!, jkt: proof.jkt }, refreshToken))
    return
  }

  const presented = str(body, 'refresh_token')
  const refreshTokens = ctx.groupAuth.oauthRefreshTokens
  const session = await sessionByRefreshToken(ctx.db, presented)
  if (!session) {
    // Whoever presents a rotated-out token, the session ends: the host cannot tell the
    // client from a thief (RFC 9700 section 4.14.2), and neither check below could either.
    if (await endSessionIfReused(ctx.db, refreshTokens, presented)) throw oauthError('invalid_grant', REUSED)
    throw oauthError('invalid_grant', 'The refresh token is unknown, revoked or expired')
  }
  if (!isLive(session)) throw oauthError('invalid_grant', 'The refresh token is unknown, revoked or expired')
  if (session.clientId !== clientId) throw oauthError('invalid_grant', 'The refresh token was issued to another client')
  if (proof.jkt !== session.jkt) throw oauthError('invalid_dpop_proof', 'The DPoP key is not the one this session is bound to')
  if (!(await rolesStillHeld(ctx, session))) {
    await revokeSession(ctx.db, session.id)
    throw oauthError('invalid_grant', 'The person no longer holds the roles this session was granted with; it has ended')
  }
  const refreshToken = await rotateRefreshToken(ctx.db, refreshTokens, session.id, presented)
  if (!refreshToken) {
    // A concurrent refresh with the same token rotated it first: this use is a second one.
    await revokeSession(ctx.db, session.id)
    throw oauthError('invalid_grant', REUSED)
  }
  res.set('Cache-Control', 'no-store').json(await tokenResponse(ctx, session, refreshToken))
}

/**
 * Token revocation (RFC 7009): a refresh or access token ends its whole session. The
 * answer is 200 whatever the token was, as the RFC says, so it tells a caller nothing.
 */
async function revoke(ctx: HostContext, req: express.Request, res: express.Response): Promise<void> {
  const body = (req.body ?? {}) as Record<string, unknown>
  const presented = str(body, 'token')
  const clientId = typeof body.client_id === 'string' ? body.client_id : undefined
  let session = await sessionByRefreshToken(ctx.db, presented)
  if (!session && ctx.groupAuth.oauthTokens.claimsToBeOurs(presented)) {
    const claims = await ctx.groupAuth.oauthTokens.verify(presented).catch(() => undefined)
    session = claims && (await liveSession(ctx.db, claims.sid))
  }
  if (session && (!clientId || clientId === session.clientId)) await revokeSession(ctx.db, session.id)
  res.set('Cache-Control', 'no-store').status(200).json({})
}

export function registerToken(app: express.Application, ctx: HostContext): void {
  app.post(TOKEN_PATH, oauthEndpoint((req, res) => token(ctx, req, res)))
  app.post(REVOKE_PATH, oauthEndpoint((req, res) => revoke(ctx, req, res)))
}
