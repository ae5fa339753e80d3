import { P256Keypair, Secp256k1Keypair, verifySignature } from '@atproto/crypto'
import { secp256k1 } from '@noble/curves/secp256k1'
import { describe, expect, it } from 'vitest'
import { nodeVerifySignature } from '../../src/host/auth/verify-signature.js'

const msg = Buffer.from('eyJhbGciOiJFUzI1NksifQ.eyJpc3MiOiJkaWQ6cGxjOngifQ', 'utf8')

describe('nodeVerifySignature (service-auth signatures with node:crypto)', () => {
  it('agrees with @atproto/crypto on sound ES256K and ES256 signatures, again and again (cached keys)', async () => {
    for (const keypair of [await Secp256k1Keypair.create(), await P256Keypair.create()]) {
      const sig = await keypair.sign(msg)
      for (let i = 0; i < 3; i++) {
        expect(await nodeVerifySignature(keypair.did(), msg, sig, keypair.jwtAlg)).toBe(true)
      }
      expect(await verifySignature(keypair.did(), msg, sig)).toBe(true)
    }
  })

  it('refuses another message, another key, and a signature of the wrong length', async () => {
    const keypair = await Secp256k1Keypair.create()
    const other = await Secp256k1Keypair.create()
    const sig = await keypair.sign(msg)
    expect(await nodeVerifySignature(keypair.did(), Buffer.from('something else'), sig, 'ES256K')).toBe(false)
    expect(await nodeVerifySignature(other.did(), msg, sig, 'ES256K')).toBe(false)
    expect(await nodeVerifySignature(keypair.did(), msg, sig.subarray(0, 63), 'ES256K')).toBe(false)
  })

  it('refuses the high-S twin of a sound signature, as atproto does', async () => {
    const keypair = await Secp256k1Keypair.create()
    const sig = await keypair.sign(msg)
    const n = secp256k1.CURVE.n
    const s = BigInt(`0x${Buffer.from(sig.subarray(32)).toString('hex')}`)
    const highS = Buffer.concat([sig.subarray(0, 32), Buffer.from((n - s).toString(16).padStart(64, '0'), 'hex')])
    expect(await nodeVerifySignature(keypair.did(), msg, highS, 'ES256K')).toBe(false)
  })

  it('throws for a did:key that is not one (verifyJwt answers BadJwtSignature)', async () => {
    const sig = await (await Secp256k1Keypair.create()).sign(msg)
    await expect(nodeVerifySignature('did:key:zNotAKey', msg, sig, 'ES256K')).rejects.toThrow()
  })
})
