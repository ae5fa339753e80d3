import { AuthRequiredError, verifyJwt, type MethodAuthContext } from '@atproto/xrpc-server'
import type { HostContext } from '../context.js'
import { nodeVerifySignature } from './verify-signature.js'

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
  return async ({ req }: MethodAuthContext): Promise<ServiceAuthCredentials> => {
    const header = req.headers.authorization ?? ''
    if (!header.startsWith('Bearer ')) {
      throw new AuthRequiredError('Service auth is required: send "Authorization: Bearer <token from getServiceAuth>"', 'AuthMissing')
    }
    const token = header.slice('Bearer '.length).trim()
    const lxm = methodOf(req.originalUrl ?? req.url)
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
    return { credentials: { did: payload.iss.split('#')[0]! } }
  }
}
