import type { JWK } from 'jose'

/** JWK members that only private (or symmetric) keys have. */
const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k', 'priv']

/** The public key types and curves a proof may carry: those of the algorithms the host accepts. */
const REQUIRED_MEMBERS: Record<string, { crv?: string[]; members: string[] }> = {
  EC: { crv: ['P-256', 'P-384', 'P-521'], members: ['x', 'y'] },
  OKP: { crv: ['Ed25519'], members: ['x'] },
  RSA: { members: ['n', 'e'] },
}

/**
 * The public key in a DPoP proof's header (RFC 9449 section 4.2), or why it is not one.
 * The header is the caller's JSON, so `jwk` may be anything: a string, a number, an
 * array, null, an object missing members, a private key, a key type no accepted
 * algorithm uses. Each is a plain refusal here, before a library looks at it (with
 * `"jwk": "x"` a library check like `'d' in jwk` throws a TypeError: a 500).
 */
export function proofKeyOf(jwk: unknown): JWK | string {
  if (jwk === undefined) return 'The DPoP proof\'s header needs a "jwk": the public key that signed it'
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) return 'The "jwk" of a DPoP proof must be a JSON object (a public JWK)'
  const key = jwk as Record<string, unknown>
  if (PRIVATE_JWK_MEMBERS.some((m) => m in key)) return 'The "jwk" of a DPoP proof must be a public key; never send a private key'
  const shape = typeof key.kty === 'string' && Object.hasOwn(REQUIRED_MEMBERS, key.kty) ? REQUIRED_MEMBERS[key.kty] : undefined
  if (!shape) {
    return `The "jwk" of a DPoP proof must have a "kty" of ${Object.keys(REQUIRED_MEMBERS).join(', ')}`
  }
  if (shape.crv && !shape.crv.includes(key.crv as string)) {
    return `A ${key.kty as string} "jwk" in a DPoP proof must have a "crv" of ${shape.crv.join(', ')}`
  }
  const missing = shape.members.filter((m) => typeof key[m] !== 'string' || !key[m])
  if (missing.length) return `The ${key.kty as string} "jwk" of the DPoP proof lacks ${missing.map((m) => `"${m}"`).join(', ')}`
  return key as JWK
}
