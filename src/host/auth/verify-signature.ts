import crypto from 'node:crypto'
import { parseDidKey, P256_JWT_ALG, SECP256K1_JWT_ALG } from '@atproto/crypto'
import { secp256k1 } from '@noble/curves/secp256k1'
import { p256 } from '@noble/curves/p256'
import type { VerifySignatureWithKeyFn } from '@atproto/xrpc-server'

/**
 * Service-auth signature checks with Node's built-in (OpenSSL) ECDSA instead of
 * `@atproto/crypto`'s pure-JS default: several times the verifications per core,
 * and verification is what bounds an authenticated host's throughput. The key
 * decoding and the low-S rule (atproto refuses malleable high-S signatures) follow
 * `@atproto/crypto`; only the curve arithmetic moves to OpenSSL.
 *
 * The check runs on libuv's thread pool (`crypto.verify` with a callback), so the
 * event loop serves other requests meanwhile and a host on several cores verifies on
 * all of them. Decoded keys are cached by did:key, before any parsing: decompressing
 * a key costs a fifth of a verification.
 */
interface PublicKey {
  key: crypto.KeyObject
  /** Half the curve order: a signature's `s` above it is high-S. */
  halfN: bigint
}

const keyCache = new Map<string, PublicKey | null>()
const MAX_CACHED_KEYS = 10_000

const CURVES = {
  [SECP256K1_JWT_ALG]: { noble: secp256k1, jwkCrv: 'secp256k1' },
  [P256_JWT_ALG]: { noble: p256, jwkCrv: 'P-256' },
} as const

function decodeKey(didKey: string): PublicKey | null {
  const { jwtAlg, keyBytes } = parseDidKey(didKey)
  const curve = CURVES[jwtAlg as keyof typeof CURVES]
  if (!curve) return null
  const point = curve.noble.ProjectivePoint.fromHex(keyBytes).toRawBytes(false)
  const key = crypto.createPublicKey({
    format: 'jwk',
    key: {
      kty: 'EC',
      crv: curve.jwkCrv,
      x: Buffer.from(point.subarray(1, 33)).toString('base64url'),
      y: Buffer.from(point.subarray(33, 65)).toString('base64url'),
    },
  })
  return { key, halfN: curve.noble.CURVE.n / 2n }
}

/** The key a did:key names, or null for a curve atproto does not use; throws for a malformed one. */
function publicKeyOf(didKey: string): PublicKey | null {
  let pub = keyCache.get(didKey)
  if (pub === undefined) {
    pub = decodeKey(didKey)
    if (keyCache.size >= MAX_CACHED_KEYS) keyCache.delete(keyCache.keys().next().value!)
    keyCache.set(didKey, pub)
  }
  return pub
}

export const nodeVerifySignature: VerifySignatureWithKeyFn = async (didKey, msgBytes, sigBytes) => {
  if (sigBytes.length !== 64) return false
  const pub = publicKeyOf(didKey)
  if (!pub) return false
  const s = BigInt(`0x${Buffer.from(sigBytes.subarray(32)).toString('hex')}`)
  if (s === 0n || s > pub.halfN) return false // high-S: refused, as atproto requires
  return new Promise((resolve, reject) =>
    crypto.verify('sha256', msgBytes, { key: pub.key, dsaEncoding: 'ieee-p1363' }, sigBytes, (err, ok) => (err ? reject(err) : resolve(ok))),
  )
}
