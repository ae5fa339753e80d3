import { AuthRequiredError, XRPCError, verifyJwt, type MethodAuthContext } from '@atproto/xrpc-server'
import { ensureAtprotoKey } from '@atproto/identity'
import type { IdResolver } from '@atproto/identity'
import type { VerifiedTokenCache } from './verified-tokens.js'
import { resolveDidDocument } from '../identity/resolve-did.js'
import { nodeVerifySignature } from './verify-signature.js'
import { precheckServiceAuthToken } from './token-precheck.js'
import { noteCaller } from '../log/request-log.js'
import { nsidOfXrpcPath } from '../../shared/xrpc-path.js'

/**
 * The longest lifetime (`exp - iat`) a service-auth token may have: the PDS's own cap
 * for `getServiceAuth` (decisions section 6.2). A longer-lived token did not come from
 * a PDS that keeps that cap, and a leaked one would be good for too long.
 */
export const SERVICE_AUTH_MAX_LIFETIME_S = 60 * 60
/** How far ahead of the host's clock a token's `iat` may be (the PDS's clock may run ahead). */
export const SERVICE_AUTH_CLOCK_SKEW_S = 5 * 60

export interface ServiceAuthCredentials {
  credentials: { did: string }
}

/** A verified service-auth token: who sent it, and what `getGroupAuth` needs to accept it once. */
export interface VerifiedServiceAuth {
  did: string
  jti?: string
  exp: number
}

/**
 * What checking service auth needs: this host's `aud`, DID resolution for the issuer's
 * key, and the cache of tokens already checked (absent: check every time).
 */
export interface ServiceAuthDeps {
  identity: { aud: string }
  idResolver: IdResolver
  verifiedTokens?: VerifiedTokenCache
}

/**
 * Service auth (spec section 5): a JWT minted by the caller's own PDS, signed with the
 * key in the caller's DID document, `aud` exactly `<this host's service DID>#groups`,
 * `lxm` exactly the method being called, not expired, living at most an hour. Anything
 * else is a 401; a PLC directory that cannot be reached to check the key is a 503.
 */
export async function verifyServiceAuth(ctx: ServiceAuthDeps, req: MethodAuthContext['req']): Promise<VerifiedServiceAuth> {
  const header = req.headers.authorization ?? ''
  if (!header.startsWith('Bearer ')) {
    throw new AuthRequiredError('Service auth is required: send "Authorization: Bearer <token from getServiceAuth>"', 'AuthMissing')
  }
  const token = header.slice('Bearer '.length).trim()
  // Only routed methods get here; '' (no method) would match no token's `lxm`.
  const lxm = nsidOfXrpcPath(req.originalUrl ?? req.url) ?? ''
  // No DID is resolved for a token that fails what needs no key. Also before the cache:
  // a token verified for one method is still refused for another (its `lxm`), and an
  // expired one is refused with its own error.
  precheckServiceAuthToken(token, ctx.identity.aud, lxm)
  const known = ctx.verifiedTokens?.get(token)
  if (known) return known
  const payload = await verifyJwt(token, ctx.identity.aud, lxm, (iss, forceRefresh) => signingKeyOf(ctx, iss, forceRefresh), nodeVerifySignature).catch(
    (err: unknown) => {
      // Our own refusals (401) and outages (503) pass as they are.
      if (err instanceof XRPCError) throw err
      throw new AuthRequiredError(`Service auth could not be verified: ${(err as Error).message}`, 'BadJwt')
    },
  )
  // verifyJwt checks `exp` but neither reads `iat` nor returns `jti` in its type.
  const { iat, jti } = payload as { iat?: unknown; jti?: unknown }
  checkLifetime(iat, payload.exp)
  const verified = { did: payload.iss.split('#')[0]!, jti: typeof jti === 'string' ? jti : undefined, exp: payload.exp }
  ctx.verifiedTokens?.set(token, verified)
  return verified
}

export function serviceAuth(ctx: ServiceAuthDeps) {
  return async ({ req, res }: MethodAuthContext): Promise<ServiceAuthCredentials> => {
    const { did } = await verifyServiceAuth(ctx, req)
    noteCaller(res, did)
    return { credentials: { did } }
  }
}

/** Refuses a token that lives longer than an hour, or says nothing of when it was made. */
function checkLifetime(iat: unknown, exp: number): void {
  if (typeof iat !== 'number' || !Number.isFinite(iat)) {
    throw new AuthRequiredError('Service auth tokens must say when they were issued ("iat")', 'BadJwtLifetime')
  }
  if (exp - iat > SERVICE_AUTH_MAX_LIFETIME_S) {
    throw new AuthRequiredError(
      `Service auth tokens may live at most ${SERVICE_AUTH_MAX_LIFETIME_S} seconds (exp - iat); this one lives ${exp - iat}: mint one with a nearer "exp"`,
      'BadJwtLifetime',
    )
  }
  if (iat > Date.now() / 1000 + SERVICE_AUTH_CLOCK_SKEW_S) {
    throw new AuthRequiredError('Service auth token issued in the future ("iat"): check the clock of its issuer', 'BadJwtLifetime')
  }
}

/**
 * The issuer's atproto signing key, from its DID document (through the host's cache).
 * A DID that does not resolve, or has no usable key, is a 401; a PLC that cannot be
 * reached is a 503 (resolveDidDocument), so an outage never turns valid tokens into 401s.
 */
async function signingKeyOf(ctx: ServiceAuthDeps, iss: string, forceRefresh: boolean): Promise<string> {
  // A did#service issuer is a service acting for itself; callers here are people.
  const did = iss.split('#')[0]!
  const doc = await resolveDidDocument(ctx.idResolver, did, forceRefresh)
  if (!doc) throw new AuthRequiredError(`The token's issuer ${did} does not resolve to a DID document`, 'BadJwt')
  try {
    return ensureAtprotoKey(doc)
  } catch {
    throw new AuthRequiredError(`The DID document of ${did} has no usable atproto signing key`, 'BadJwt')
  }
}
