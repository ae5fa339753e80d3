import { AuthRequiredError, verifyJwt, type MethodAuthContext } from '@atproto/xrpc-server'
import type { HostContext } from '../context.js'
import { nodeVerifySignature } from './verify-signature.js'
import { precheckServiceAuthToken } from './token-precheck.js'
import { noteCaller } from '../log/request-log.js'

export interface ServiceAuthCredentials {
  credentials: { did: string }
}

/** The NSID a request is for, from its path (`/xrpc/<nsid>`). */
export function methodOf(path: string): string {
  return path.replace(/^\/xrpc\//, '').split(/[?/]/)[0] ?? ''
}

/**
 * Service auth (spec section 5): a JWT minted by the caller's own PDS, signed with the
 * key in the caller's DID document, `aud` exactly `<this host's service DID>#groups`,
 * `lxm` exactly the method being called, not expired. Anything else is a 401.
 */
export function serviceAuth(ctx: HostContext) {
  return async ({ req, res }: MethodAuthContext): Promise<ServiceAuthCredentials> => {
    const header = req.headers.authorization ?? ''
    if (!header.startsWith('Bearer ')) {
      throw new AuthRequiredError('Service auth is required: send "Authorization: Bearer <token from getServiceAuth>"', 'AuthMissing')
    }
    const token = header.slice('Bearer '.length).trim()
    const lxm = methodOf(req.originalUrl ?? req.url)
    // No DID is resolved for a token that fails what needs no key.
    precheckServiceAuthToken(token, ctx.identity.aud, lxm)
    const payload = await verifyJwt(
      token,
      ctx.identity.aud,
      lxm,
      async (iss, forceRefresh) => {
        // A did#service issuer is a service acting for itself; callers here are people.
        const did = iss.split('#')[0]!
        return ctx.idResolver.did.resolveAtprotoKey(did, forceRefresh)
      },
      nodeVerifySignature,
    ).catch((err: unknown) => {
      if (err instanceof AuthRequiredError) throw err
      throw new AuthRequiredError(`Service auth could not be verified: ${(err as Error).message}`, 'BadJwt')
    })
    const did = payload.iss.split('#')[0]!
    noteCaller(res, did)
    return { credentials: { did } }
  }
}
