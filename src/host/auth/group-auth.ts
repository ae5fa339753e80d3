import type { HostDb } from '../db/index.js'
import { DpopVerifier } from './dpop.js'
import { AccessTokens } from './access-tokens.js'
import { GROUP_CREDENTIAL, type GroupGrant } from './group-token.js'
import { SESSION_ACCESS_TOKEN, type OAuthAccessClaims } from '../oauth/access-token.js'
import { RefreshTokens } from '../oauth/refresh-tokens.js'
import { OneTimeServiceTokens } from './service-jti.js'
import { randomSecret } from '../secrets/stored-secrets.js'

/**
 * The keys and checkers of group auth, made once at start: DPoP proofs and the tokens
 * `getGroupAuth`, group writes and the OAuth sign-in issue and read. The checks that use
 * them: service-auth-with-proof.ts (getGroupAuth), group-credential-auth.ts (writes).
 */
export interface GroupAuth {
  dpop: DpopVerifier
  tokens: AccessTokens<GroupGrant>
  /** Access tokens of group sessions from the OAuth sign-in (src/host/oauth). */
  oauthTokens: AccessTokens<OAuthAccessClaims>
  /** Their refresh tokens, which the host recognises even once rotated out (reuse ends the session). */
  oauthRefreshTokens: RefreshTokens
  /** `getGroupAuth` takes each service-auth token once. */
  oneTimeTokens: OneTimeServiceTokens
}

/** The DPoP nonce and token secrets are 32 random bytes each, sealed in `host_secret`. */
export async function loadGroupAuth(db: HostDb, opts: { publicUrl: string; serviceDid: string; hostKey: Buffer }): Promise<GroupAuth> {
  return {
    dpop: new DpopVerifier(db, await randomSecret(db, opts.hostKey, 'dpopNonceSecret'), opts.publicUrl),
    tokens: new AccessTokens(GROUP_CREDENTIAL, await randomSecret(db, opts.hostKey, 'groupTokenSecret'), opts.serviceDid),
    oauthTokens: new AccessTokens(SESSION_ACCESS_TOKEN, await randomSecret(db, opts.hostKey, 'oauthTokenSecret'), new URL(opts.publicUrl).origin),
    oauthRefreshTokens: new RefreshTokens(await randomSecret(db, opts.hostKey, 'oauthRefreshSecret')),
    oneTimeTokens: new OneTimeServiceTokens(db),
  }
}
