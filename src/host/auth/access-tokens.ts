import { randomUUID } from 'node:crypto'
import { AuthRequiredError } from '@atproto/xrpc-server'
import { SignJWT, decodeJwt, errors, jwtVerify, type JWTPayload } from 'jose'

/** Both kinds of access token last 15 minutes (spec sections 5.3 and 8, decisions 6.6). */
export const ACCESS_TOKEN_TTL_S = 15 * 60

const TOKEN_TYPE = 'at+jwt'
const ALG = 'HS256'

/**
 * One kind of access token: what it carries besides the subject and the DPoP key, and
 * what a refusal calls it. `getGroupAuth` credentials and group sessions' tokens are the
 * two kinds; they differ only in these, and in their secret and issuer.
 */
export interface AccessTokenKind<C extends { sub: string; jkt: string }> {
  /** As refusals name it: "The <name> has expired". */
  name: string
  /** What to do once it has expired. */
  renew: string
  /** Its own claims, beside `sub` and `cnf.jkt`. */
  write(claims: C): JWTPayload
  /** Its claims from a verified payload, or null when they are not all there. */
  read(payload: JWTPayload, base: { sub: string; jkt: string }): C | null
}

/**
 * Access tokens the host both issues and checks, so HMAC-signed (RFC 9068 `at+jwt`) with
 * a secret only the host holds: `sub` is the group the token acts for, `cnf.jkt` the
 * DPoP key it is bound to (RFC 9449 section 6), `iss` and `aud` the issuer (each kind its
 * own, which is also how the kinds are told apart: `claimsToBeOurs`).
 */
export class AccessTokens<C extends { sub: string; jkt: string }> {
  constructor(
    private readonly kind: AccessTokenKind<C>,
    private readonly secret: Uint8Array,
    readonly issuer: string,
  ) {}

  async mint(claims: C): Promise<{ token: string; expiresAt: Date; expiresIn: number }> {
    const iat = Math.floor(Date.now() / 1000)
    const exp = iat + ACCESS_TOKEN_TTL_S
    const token = await new SignJWT({ ...this.kind.write(claims), cnf: { jkt: claims.jkt } })
      .setProtectedHeader({ alg: ALG, typ: TOKEN_TYPE })
      .setIssuer(this.issuer)
      .setAudience(this.issuer)
      .setSubject(claims.sub)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .setJti(randomUUID())
      .sign(this.secret)
    return { token, expiresAt: new Date(exp * 1000), expiresIn: ACCESS_TOKEN_TTL_S }
  }

  /** Whether `token` claims to be one of these (unverified: only to pick the verifier). */
  claimsToBeOurs(token: string): boolean {
    try {
      return decodeJwt(token).iss === this.issuer
    } catch {
      return false
    }
  }

  /** The claims of a token this issuer made and that has not expired; 401 `ExpiredToken` or `InvalidToken` otherwise. */
  async verify(token: string): Promise<C> {
    let payload
    try {
      ;({ payload } = await jwtVerify(token, this.secret, { algorithms: [ALG], typ: TOKEN_TYPE, issuer: this.issuer, audience: this.issuer }))
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw new AuthRequiredError(`The ${this.kind.name} has expired: ${this.kind.renew}`, 'ExpiredToken')
      throw new AuthRequiredError(`The ${this.kind.name} is not one this host issued`, 'InvalidToken')
    }
    const jkt = (payload.cnf as { jkt?: unknown } | undefined)?.jkt
    const claims = typeof payload.sub === 'string' && typeof jkt === 'string' ? this.kind.read(payload, { sub: payload.sub, jkt }) : null
    if (!claims) throw new AuthRequiredError(`The ${this.kind.name} is malformed`, 'InvalidToken')
    return claims
  }
}
