import { describe, expect, it } from 'vitest'
import { VerifiedTokenCache } from '../../src/host/auth/verified-tokens.js'

const claims = (exp: number) => ({ did: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa', jti: 'j', exp })

describe('service-auth tokens verified once per process (issue 18)', () => {
  it('remembers a verified token until its exp, by its exact bytes', () => {
    let now = 1000
    const cache = new VerifiedTokenCache(10, () => now)
    cache.set('a.b.c', claims(1060))
    expect(cache.get('a.b.c')).toEqual(claims(1060))
    // One changed byte (another signature) is another token: checked afresh.
    expect(cache.get('a.b.d')).toBeUndefined()
    now = 1060
    expect(cache.get('a.b.c')).toBeUndefined()
    expect(cache.size).toBe(0)
  })

  it('keeps no already-expired token, and stays within its bound, expired entries going first', () => {
    let now = 1000
    const cache = new VerifiedTokenCache(3, () => now)
    cache.set('old', claims(999))
    expect(cache.size).toBe(0)
    cache.set('t1', claims(1010))
    cache.set('t2', claims(2000))
    cache.set('t3', claims(2000))
    now = 1020 // t1 has expired: it makes room, t2 stays
    cache.set('t4', claims(2000))
    expect(cache.size).toBe(3)
    expect(cache.get('t2')).toBeDefined()
    cache.set('t5', claims(2000)) // nothing expired: the oldest goes
    expect(cache.size).toBe(3)
    expect(cache.get('t2')).toBeUndefined()
    expect(cache.get('t5')).toBeDefined()
  })
})
