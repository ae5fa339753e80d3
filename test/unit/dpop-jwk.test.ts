import { describe, expect, it } from 'vitest'
import { proofKeyOf } from '../../src/host/auth/dpop-jwk.js'
import { challengeValue } from '../../src/host/auth/www-authenticate.js'

describe('the jwk in a DPoP proof header', () => {
  const ec = { kty: 'EC', crv: 'P-256', x: 'eA', y: 'eQ' }

  it('accepts public EC, OKP and RSA keys', () => {
    expect(proofKeyOf(ec)).toEqual(ec)
    expect(proofKeyOf({ kty: 'OKP', crv: 'Ed25519', x: 'eA' })).toMatchObject({ kty: 'OKP' })
    expect(proofKeyOf({ kty: 'RSA', n: 'bg', e: 'AQAB' })).toMatchObject({ kty: 'RSA' })
  })

  it('refuses, with a reason, every other shape instead of throwing', () => {
    const shapes: unknown[] = [
      undefined, 'x', 1, true, null, [], [ec], {}, { kty: 'EC' }, { ...ec, x: 1 }, { ...ec, y: '' },
      { ...ec, d: 'secret' }, { kty: 'oct', k: 'c2VjcmV0' }, { ...ec, crv: 'secp256k1' }, { kty: 'OKP', crv: 'X25519', x: 'eA' },
      { kty: 'toString' }, { kty: '__proto__' }, { kty: 'AKP', alg: 'ML-DSA-44', pub: 'eA' },
    ]
    for (const jwk of shapes) {
      const result = proofKeyOf(jwk)
      expect(typeof result, JSON.stringify(jwk) ?? 'undefined').toBe('string')
      expect((result as string).length).toBeGreaterThan(0)
    }
  })
})

describe('WWW-Authenticate: DPoP challenges', () => {
  it('name the error and keep the description a valid quoted string', () => {
    const value = challengeValue('invalid_dpop_proof', 'The proof’s "htu" must be \\ the URL — ok')
    expect(value).toMatch(/^DPoP error="invalid_dpop_proof", error_description="[\x20\x21\x23-\x5b\x5d-\x7e]*", algs="[^"]+"$/)
    expect(challengeValue(undefined)).toMatch(/^DPoP algs="ES256 /)
  })
})
