import { randomUUID } from 'node:crypto'
import { AuthRequiredError } from '@atproto/xrpc-server'
import { SignJWT, errors, jwtVerify } from 'jose'

/** A `getGroupAuth` access token lasts 15 minutes (spec sections 5.3 and 8). */
export const GROUP_TOKEN_TTL_S = 15 * 60

const TOKEN_TYPE = 'at+jwt'
const ALG = 'HS256'

/** What a group credential lets its holder do, as carried in the token. */
export interface GroupGrant {
  /** The group DID: the token acts for it. */
  group: string
  /** The member who obtained it (their roles decided the grant). */
  actor: string
  /** The one space it writes in. */
  space: string
  /** Collections it may write there; `['*']` for every collection. */
  collections: string[]
  scope: string
  /** Thumbprint of the DPoP key it is bound to. */
  jkt: string
}

/**
 * Access tokens for group credentials. The host both issues and checks them, so they are
 * HMAC-signed (RFC 9068 `at+jwt`) with a secret only the host holds: `sub` is the group,
 * `act.sub` the member acting for it (RFC 8693), `cnf.jkt` the DPoP key (RFC 9449
 * section 6), `iss` and `aud` the host's service DID.
 */
export class GroupTokens {
  constructor(
    private readonly secret: Uint8Array,
    private readonly issuer: string,
  ) {}

  async mint(grant: GroupGrant): Promise<{ token: string; expiresAt: Date }> {
    const iat = Math.floor(Date.now() / 1000)
    const exp = iat + GROUP_TOKEN_TTL_S
    const token = await new SignJWT({
      act: { sub: grant.actor },
      space: grant.space,
      collections: grant.collections,
      scope: grant.scope,
      cnf: { jkt: grant.jkt },
    })
      .setProtectedHeader({ alg: ALG, typ: TOKEN_TYPE })
      .setIssuer(this.issuer)
      .setAudience(this.issuer)
      .setSubject(grant.group)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .setJti(randomUUID())
      .sign(this.secret)
    return { token, expiresAt: new Date(exp * 1000) }
  }

  /** The grant a token carries; 401 `ExpiredToken` or `InvalidToken` otherwise. */
  async verify(token: string): Promise<GroupGrant> {
    let payload
    try {
      ;({ payload } = await jwtVerify(token, this.secret, { algorithms: [ALG], typ: TOKEN_TYPE, issuer: this.issuer, audience: this.issuer }))
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw new AuthRequiredError('The group credential has expired: get a new one with example.groups.getGroupAuth', 'ExpiredToken')
      throw new AuthRequiredError('The group credential is not one this host issued', 'InvalidToken')
    }
    const { sub, act, space, collections, scope, cnf } = payload as Record<string, unknown>
    const actor = (act as { sub?: unknown } | undefined)?.sub
    const jkt = (cnf as { jkt?: unknown } | undefined)?.jkt
    if (
      typeof sub !== 'string' ||
      typeof actor !== 'string' ||
      typeof space !== 'string' ||
      typeof scope !== 'string' ||
      typeof jkt !== 'string' ||
      !Array.isArray(collections) ||
      !collections.every((c) => typeof c === 'string')
    ) {
      throw new AuthRequiredError('The group credential is malformed', 'InvalidToken')
    }
    return { group: sub, actor, space, collections: collections as string[], scope, jkt }
  }
}
