import { randomUUID } from 'node:crypto'
import { AuthRequiredError } from '@atproto/xrpc-server'
import { SignJWT, decodeJwt, errors, jwtVerify } from 'jose'

/** Access tokens of group sessions live 15 minutes (decisions 6.6), as group credentials do. */
const OAUTH_ACCESS_TOKEN_TTL_S = 15 * 60

const TOKEN_TYPE = 'at+jwt'
const ALG = 'HS256'

export interface OAuthAccessClaims {
  /** The group DID: the session acts for it. */
  sub: string
  /** The session it belongs to (looked up on every use: revoked or expired sessions stop at once). */
  sid: string
  clientId: string
  scope: string
  jkt: string
}

/**
 * Access tokens of group sessions (RFC 9068 `at+jwt`, HMAC with a secret only the host
 * holds: it both issues and checks them). `iss` and `aud` are the host's public origin,
 * which is also how a token is told apart from a `getGroupAuth` credential (whose
 * `iss` is the service DID).
 */
export class OAuthAccessTokens {
  constructor(
    private readonly secret: Uint8Array,
    readonly issuer: string,
  ) {}

  async mint(claims: OAuthAccessClaims): Promise<{ token: string; expiresIn: number }> {
    const iat = Math.floor(Date.now() / 1000)
    const token = await new SignJWT({ sid: claims.sid, client_id: claims.clientId, scope: claims.scope, cnf: { jkt: claims.jkt } })
      .setProtectedHeader({ alg: ALG, typ: TOKEN_TYPE })
      .setIssuer(this.issuer)
      .setAudience(this.issuer)
      .setSubject(claims.sub)
      .setIssuedAt(iat)
      .setExpirationTime(iat + OAUTH_ACCESS_TOKEN_TTL_S)
      .setJti(randomUUID())
      .sign(this.secret)
    return { token, expiresIn: OAUTH_ACCESS_TOKEN_TTL_S }
  }

  /** Whether `token` claims to be one of these (unverified: only to pick the verifier). */
  claimsToBeOurs(token: string): boolean {
    try {
      return decodeJwt(token).iss === this.issuer
    } catch {
      return false
    }
  }

  /** The claims of a token this host issued and that has not expired; 401 otherwise. */
  async verify(token: string): Promise<OAuthAccessClaims> {
    let payload
    try {
      ;({ payload } = await jwtVerify(token, this.secret, { algorithms: [ALG], typ: TOKEN_TYPE, issuer: this.issuer, audience: this.issuer }))
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw new AuthRequiredError('The access token has expired: refresh the session', 'ExpiredToken')
      throw new AuthRequiredError('The access token is not one this host issued', 'InvalidToken')
    }
    const { sub, sid, client_id, scope, cnf } = payload as Record<string, unknown>
    const jkt = (cnf as { jkt?: unknown } | undefined)?.jkt
    if (typeof sub !== 'string' || typeof sid !== 'string' || typeof client_id !== 'string' || typeof scope !== 'string' || typeof jkt !== 'string') {
      throw new AuthRequiredError('The access token is malformed', 'InvalidToken')
    }
    return { sub, sid, clientId: client_id, scope, jkt }
  }
}
