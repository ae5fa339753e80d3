import type { AccessTokenKind } from '../auth/access-tokens.js'

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
 * Access tokens of group sessions (the OAuth sign-in). `iss` and `aud` are the host's
 * public origin, which is how a token is told apart from a `getGroupAuth` credential
 * (whose `iss` is the service DID).
 */
export const SESSION_ACCESS_TOKEN: AccessTokenKind<OAuthAccessClaims> = {
  name: 'access token',
  renew: 'refresh the session',
  write: (c) => ({ sid: c.sid, client_id: c.clientId, scope: c.scope }),
  read: ({ sid, client_id, scope }, base) =>
    typeof sid === 'string' && typeof client_id === 'string' && typeof scope === 'string' ? { ...base, sid, clientId: client_id, scope } : null,
}
