import crypto from 'node:crypto'
import { parseDidKey, P256_JWT_ALG, SECP256K1_JWT_ALG } from '@atproto/crypto'
import { secp256k1 } from '@noble/curves/secp256k1'
import { p256 } from '@noble/curves/p256'
import type { VerifySignatureWithKeyFn } from '@atproto/xrpc-server'

/**
 * Service-auth signature checks with Node's built-in (OpenSSL) ECDSA instead of
 * `@atproto/crypto`'s pure-JS default: about eight times the verifications per core,
 * and verification is what bounds an authenticated host's throughput. The key
 * decoding and the low-S rule (atproto refuses malleable high-S signatures) follow
 * `@atproto/crypto`; only the curve arithmetic moves to OpenSSL.
 */
const keyCache = new Map<string, crypto.KeyObject>()
const MAX_CACHED_KEYS = 10_000

const CURVES = {
  [SECP256K1_JWT_ALG]: { noble: secp256k1, jwkCrv: 'secp256k1' },
  [P256_JWT_ALG]: { noble: p256, jwkCrv: 'P-256' },
} as const

function publicKeyObject(didKey: string): { key: crypto.KeyObject; n: bigint } | null {
  const { jwtAlg, keyBytes } = parseDidKey(didKey)
  const curve = CURVES[jwtAlg as keyof typeof CURVES]
  if (!curve) return null
  let key = keyCache.get(didKey)
  if (!key) {
    const point = curve.noble.ProjectivePoint.fromHex(keyBytes).toRawBytes(false)
    key = crypto.createPublicKey({
      format: 'jwk',
      key: {
        kty: 'EC',
        crv: curve.jwkCrv,
        x: Buffer.from(point.subarray(1, 33)).toString('base64url'),
        y: Buffer.from(point.subarray(33, 65)).toString('base64url'),
      },
    })
    if (keyCache.size >= MAX_CACHED_KEYS) keyCache.delete(keyCache.keys().next().value!)
    keyCache.set(didKey, key)
  }
  return { key, n: curve.noble.CURVE.n }
}

export const nodeVerifySignature: VerifySignatureWithKeyFn = async (didKey, msgBytes, sigBytes) => {
  if (sigBytes.length !== 64) return false
  const pub = publicKeyObject(didKey)
  if (!pub) return false
  const s = BigInt(`0x${Buffer.from(sigBytes.subarray(32)).toString('hex')}`)
  if (s === 0n || s > pub.n / 2n) return false // high-S: refused, as atproto requires
  return crypto.verify('sha256', msgBytes, { key: pub.key, dsaEncoding: 'ieee-p1363' }, sigBytes)
}
