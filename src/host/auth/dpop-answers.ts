import { AuthRequiredError, XRPCError } from '@atproto/xrpc-server'
import { InvalidDpopProofError, UseDpopNonceError } from '@atproto/oauth-provider/errors'
import { refuse } from '../errors.js'
import { oauthError } from '../oauth/errors.js'
import { challengeValue } from './www-authenticate.js'

/**
 * Who checks the proof, which decides how a refusal is answered:
 * - `getGroupAuth`: 400 `DpopRequired` or `InvalidDpop`, as spec section 7 says for it;
 * - `resource`, the routes that take a group credential or session token: an RFC 9449
 *   resource server (section 7.1, decisions 6.5), 401 with `WWW-Authenticate: DPoP
 *   error="invalid_dpop_proof"`, the body still the spec's `{error, message}`;
 * - `authServer`, the group OAuth server's PAR and token endpoints: 400
 *   `invalid_dpop_proof` as an OAuth error (RFC 9449 section 5).
 * A missing or stale nonce is a 401 `use_dpop_nonce` challenge with
 * `WWW-Authenticate` for the first two (section 9, as the atproto PDS answers it), a 400
 * `use_dpop_nonce` OAuth error for the last (section 8); the verifier sets `DPoP-Nonce`.
 */
export type DpopChecker = 'getGroupAuth' | 'resource' | 'authServer'

export interface DpopResponse {
  setHeader(name: string, value: string): unknown
}

/** Why a proof was refused: the spec's names, or RFC 9449's nonce challenge. */
export class DpopRefusal extends Error {
  constructor(
    readonly reason: 'DpopRequired' | 'InvalidDpop' | 'use_dpop_nonce',
    message: string,
  ) {
    super(message)
  }

  /** The refusal `@atproto/oauth-provider`'s DPoP checks threw, if `err` is one. */
  static of(err: unknown): DpopRefusal | undefined {
    if (err instanceof DpopRefusal) return err
    if (err instanceof UseDpopNonceError) return new DpopRefusal('use_dpop_nonce', err.error_description)
    if (err instanceof InvalidDpopProofError) return new DpopRefusal('InvalidDpop', err.error_description)
    return undefined
  }
}

/** The error to throw for a refused proof, its `WWW-Authenticate` header set on `res`. */
export function answerDpopRefusal(checker: DpopChecker, refusal: DpopRefusal, res: DpopResponse): Error {
  const { reason, message } = refusal
  if (checker === 'authServer') return oauthError(reason === 'use_dpop_nonce' ? 'use_dpop_nonce' : 'invalid_dpop_proof', message)
  if (reason === 'use_dpop_nonce') return challenged(res, 'use_dpop_nonce', new AuthRequiredError(message, 'use_dpop_nonce'))
  if (checker === 'getGroupAuth') return refuse(reason, message)
  return challenged(res, 'invalid_dpop_proof', new AuthRequiredError(message, reason))
}

/**
 * A 401 refusal with its `WWW-Authenticate: DPoP` challenge set on the response: the
 * error code names what was wrong, none when no credential was sent at all (RFC 6750
 * section 3.1). Anything but a 401 passes unchanged.
 */
export function challenged<E>(res: DpopResponse, code: 'invalid_token' | 'invalid_dpop_proof' | 'use_dpop_nonce' | undefined, err: E): E {
  if (!(err instanceof XRPCError) || err.statusCode !== 401) return err
  res.setHeader('WWW-Authenticate', challengeValue(code, err.message))
  return err
}
