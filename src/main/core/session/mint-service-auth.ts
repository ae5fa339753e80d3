import type { OAuthSession } from '@atproto/oauth-client'
import { plainMessage } from '../../../shared/errors.js'
import { ScopePermissions } from '@atproto/oauth-scopes'
import { rpcScope, scopeFromScopeMissing } from '../../../shared/scopes.js'
import { UserFacingError } from '../ipc/errors.js'
import type { MintServiceAuth } from '../xrpc/service-auth-cache.js'
import { readXrpc, XrpcCallError } from '../xrpc/xrpc-error.js'
import { OWN_SERVER_SILENCE, sendWithTimeLimit } from '../xrpc/time-limit.js'
import { ownServerTimeoutMs } from '../network.js'

const METHOD = 'com.atproto.server.getServiceAuth'

/**
 * Asks the person's own PDS for a service-auth token (spec section 5) through their
 * OAuth session. A scope the session lacks comes back as ScopeMissingError naming the
 * scope to ask for at the next sign-in.
 */
export function mintWithSession(session: () => Promise<OAuthSession>): MintServiceAuth {
  return async (aud, lxm, exp) => {
    const s = await session()
    const query = new URLSearchParams({ aud, lxm, exp: String(exp) })
    const res = await sendWithTimeLimit(METHOD, {}, (init) => s.fetchHandler(`/xrpc/${METHOD}?${query}`, init), ownServerTimeoutMs(), OWN_SERVER_SILENCE)
    try {
      return (await readXrpc<{ token: string }>(METHOD, res)).token
    } catch (err) {
      if (!(err instanceof XrpcCallError)) throw err
      if (err.error === 'ScopeMissingError') {
        const scope = scopeFromScopeMissing(err.serverMessage) ?? ''
        throw new UserFacingError('ScopeMissingError', plainMessage('ScopeMissingError'), { scope })
      }
      if (err.status === 500 || (err.status === 400 && /aud/i.test(err.serverMessage))) {
        // PDS 0.4.x answers a `did#groups` audience with a 500.
        throw new UserFacingError('PdsUnsupported', 'Your account’s server cannot sign requests for group hosts yet (it refuses their “#groups” address). Ask its operator to update it.')
      }
      throw err
    }
  }
}

/**
 * Checks the scope the PDS granted (from the session's token info) before asking it
 * for a token: a method the sign-in does not allow fails at once, naming the scope to
 * ask for, with no round trip. Unknown grants (older sign-ins) are left to the PDS.
 */
export function checkGrantedScope(granted: () => Promise<string | undefined>, mint: MintServiceAuth): MintServiceAuth {
  return async (aud, lxm, exp) => {
    const scope = await granted()
    if (scope !== undefined && !new ScopePermissions(scope).allowsRpc({ aud, lxm })) {
      throw new UserFacingError('ScopeMissingError', plainMessage('ScopeMissingError'), { scope: rpcScope(lxm, aud) })
    }
    return mint(aud, lxm, exp)
  }
}
