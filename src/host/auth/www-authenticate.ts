/** The error codes of a DPoP challenge (RFC 9449 sections 7.1 and 9, RFC 6750 section 3.1). */
export type DpopChallengeError = 'invalid_dpop_proof' | 'invalid_token' | 'use_dpop_nonce'

/**
 * The proof algorithms the host accepts, named in its challenges (RFC 9449 section 7.1)
 * and its OAuth metadata: what `@atproto/oauth-provider`'s proof check verifies.
 */
export const DPOP_CHALLENGE_ALGS = 'ES256 ES256K ES384 ES512 EdDSA RS256 RS384 RS512 PS256 PS384 PS512'

/**
 * A `WWW-Authenticate: DPoP` value. `error_description` may hold only printable ASCII
 * without `"` or `\\` (RFC 6750 section 3), and a header value with other characters
 * would make Node throw: messages are folded into that set.
 */
export function challengeValue(error: DpopChallengeError | undefined, description?: string): string {
  const parts = [`algs="${DPOP_CHALLENGE_ALGS}"`]
  if (error) parts.unshift(`error="${error}"`, ...(description ? [`error_description="${quotable(description)}"`] : []))
  return `DPoP ${parts.join(', ')}`
}

function quotable(text: string): string {
  return text
    .replace(/["\\]/g, "'")
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[^\x20-\x7e]/g, '')
}
