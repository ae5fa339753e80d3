import { AuthRequiredError } from '@atproto/xrpc-server'
import { P256_JWT_ALG, SECP256K1_JWT_ALG } from '@atproto/crypto'

/** Signature algorithms atproto service auth uses; anything else cannot verify. */
const ALGS = new Set([SECP256K1_JWT_ALG, P256_JWT_ALG])
/** `typ`s of other tokens (access, refresh, DPoP): not service auth, as verifyJwt says too. */
const OTHER_TYPS = new Set(['at+jwt', 'refresh+jwt', 'dpop+jwt'])
/** A did:plc is 24 base32 characters; a did:web a host name (a port only as %3A). */
const DID_PLC = /^did:plc:[a-z2-7]{24}$/
const DID_WEB = /^did:web:[a-z0-9.-]{1,253}(%3A[0-9]{1,5})?$/i
/** An ECDSA P-256/secp256k1 signature is 64 bytes: 86 base64url characters. */
const SIGNATURE = /^[A-Za-z0-9_-]{86}$/
const MAX_TOKEN_CHARS = 8 * 1024

const bad = (message: string, name = 'BadJwt') => new AuthRequiredError(message, name)

function decodePart(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/**
 * Everything about a service-auth token that needs no key, checked before the host
 * resolves the issuer's DID document to find one: an unauthenticated caller would
 * otherwise make the host fetch whatever DID a token names. Shape, `alg`, `typ`, `aud`,
 * `lxm` and `exp` (with verifyJwt's error names), a signature of the right length, and
 * an issuer that is a well-formed did:plc or did:web, the only methods resolved.
 * `verifyJwt` then checks it all again and the signature.
 */
export function precheckServiceAuthToken(token: string, aud: string, lxm: string, nowS = Date.now() / 1000): void {
  if (token.length > MAX_TOKEN_CHARS) throw bad('poorly formatted jwt')
  const parts = token.split('.')
  if (parts.length !== 3) throw bad('poorly formatted jwt')
  const header = decodePart(parts[0]!)
  const payload = decodePart(parts[1]!)
  if (!header || !payload) throw bad('poorly formatted jwt')
  if (typeof header.alg !== 'string' || !ALGS.has(header.alg)) throw bad('jwt signature algorithm is not ES256K or ES256')
  if (typeof header.typ === 'string' && OTHER_TYPS.has(header.typ)) throw bad(`Invalid jwt type "${header.typ}"`, 'BadJwtType')
  if (typeof payload.exp !== 'number' || typeof payload.iss !== 'string' || typeof payload.aud !== 'string') {
    throw bad('poorly formatted jwt')
  }
  if (nowS > payload.exp) throw bad('jwt expired', 'JwtExpired')
  if (payload.aud !== aud) throw bad('jwt audience does not match service did', 'BadJwtAudience')
  if (payload.lxm !== lxm) {
    throw bad(
      payload.lxm !== undefined ? `bad jwt lexicon method ("lxm"). must match: ${lxm}` : `missing jwt lexicon method ("lxm"). must match: ${lxm}`,
      'BadJwtLexiconMethod',
    )
  }
  const did = payload.iss.split('#')[0]!
  if (!DID_PLC.test(did) && !DID_WEB.test(did)) throw bad('jwt iss must be a did:plc or did:web', 'BadJwtIss')
  if (!SIGNATURE.test(parts[2]!)) throw bad('could not verify jwt signature', 'BadJwtSignature')
}
