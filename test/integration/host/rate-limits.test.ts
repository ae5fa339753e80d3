import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

// The host's own defaults (the local network otherwise sets generous ones for its loads).
const net = useLocalNetwork({ hostRateLimits: '' })

describe('rate limits at the host’s defaults', () => {
  it('refuses the 11th createGroup of an account within the hour: 429 RateLimitExceeded with the PDS’s headers', async () => {
    const owner = net.as('outsider')
    const tag = Date.now().toString(36)
    for (let i = 1; i <= 10; i++) {
      const res = await owner.call('example.groups.createGroup', { body: { handle: `rl${tag}${i}.groups.test`, joinPolicy: 'open' } })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expect(res.headers.get('ratelimit-limit')).toBe('10')
      expect(res.headers.get('ratelimit-remaining')).toBe(String(10 - i))
    }
    const before = Math.floor(Date.now() / 1000)
    const refused = await owner.call('example.groups.createGroup', { body: { handle: `rl${tag}11.groups.test`, joinPolicy: 'open' } })
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({ error: 'RateLimitExceeded', message: expect.stringMatching(/^Too many createGroup calls: this host allows 10 an hour per account\. Try again in /) })
    expect(refused.headers.get('ratelimit-limit')).toBe('10')
    expect(refused.headers.get('ratelimit-remaining')).toBe('0')
    const reset = Number(refused.headers.get('ratelimit-reset'))
    expect(reset).toBeGreaterThan(before)
    expect(reset).toBeLessThanOrEqual(before + 3600 + 1)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    // Nothing was made: the handle is still free.
    expect((await net.as('member').call('example.groups.createGroup', { body: { handle: `rl${tag}11.groups.test`, joinPolicy: 'open' } })).status).toBe(200)
  })

  it('an account past its createGroup limit still makes other calls, counted by their own limits', async () => {
    const owner = net.as('outsider')
    expect((await owner.call('example.groups.getGroup', { params: { group: net.group('open').did } })).status).toBe(200)
    const res = await owner.call('example.groups.requestJoin', { body: { group: net.group('open').did } })
    expect(res).toMatchObject({ status: 200, body: { status: 'admitted' } })
    expect(res.headers.get('ratelimit-limit')).toBe('3000')
  })
})
