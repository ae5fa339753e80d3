import { describe, expect, it } from 'vitest'
import { ServiceAuthCache } from '../../src/main/core/xrpc/service-auth-cache.js'

function fakeMint() {
  const calls: { aud: string; lxm: string; exp: number }[] = []
  const mint = async (aud: string, lxm: string, exp: number) => {
    calls.push({ aud, lxm, exp })
    return `token-${calls.length}`
  }
  return { calls, mint }
}

describe('service-auth tokens are reused per (audience, method)', () => {
  it('mints once for repeats within the token’s life, separately per method and audience', async () => {
    const { calls, mint } = fakeMint()
    let now = 1_000_000
    const cache = new ServiceAuthCache(mint, () => now)
    expect(await cache.get('did:plc:h#groups', 'example.groups.admitMember')).toBe('token-1')
    now += 600
    expect(await cache.get('did:plc:h#groups', 'example.groups.admitMember')).toBe('token-1')
    expect(await cache.get('did:plc:h#groups', 'example.groups.createInvite')).toBe('token-2')
    expect(await cache.get('did:plc:other#groups', 'example.groups.admitMember')).toBe('token-3')
    expect(calls).toHaveLength(3)
    expect(calls[0]!.exp - 1_000_000).toBe(30 * 60)
  })

  it('mints a new one shortly before the old one expires', async () => {
    const { calls, mint } = fakeMint()
    let now = 0
    const cache = new ServiceAuthCache(mint, () => now)
    await cache.get('a#groups', 'm')
    now = 30 * 60 - 30 // within the last minute of its life
    expect(await cache.get('a#groups', 'm')).toBe('token-2')
    expect(calls).toHaveLength(2)
  })

  it('shares one mint among concurrent callers, and mints afresh after drop()', async () => {
    const { calls, mint } = fakeMint()
    const cache = new ServiceAuthCache(mint)
    const tokens = await Promise.all(Array.from({ length: 10 }, () => cache.get('a#groups', 'm')))
    expect(new Set(tokens)).toEqual(new Set(['token-1']))
    cache.drop('a#groups', 'm')
    expect(await cache.get('a#groups', 'm')).toBe('token-2')
    expect(calls).toHaveLength(2)
  })
})

describe('single-use tokens (getGroupAuth takes each token once)', () => {
  it('mints a new, short-lived token on every fresh() and never hands it out again', async () => {
    const { calls, mint } = fakeMint()
    const now = 1_000_000
    const cache = new ServiceAuthCache(mint, () => now)
    expect(await cache.fresh('a#groups', 'example.groups.getGroupAuth')).toBe('token-1')
    expect(await cache.fresh('a#groups', 'example.groups.getGroupAuth')).toBe('token-2')
    // Not cached: the ordinary path mints its own.
    expect(await cache.get('a#groups', 'example.groups.getGroupAuth')).toBe('token-3')
    expect(calls[0]!.exp - now).toBe(60)
  })
})
