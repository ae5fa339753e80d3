import { describe, expect, it } from 'vitest'
import { HOST_USAGE, UsageError, parseHostArgs } from '../../src/host/config.js'
import { DEFAULT_RATE_LIMITS, parseRateLimits } from '../../src/host/limits/rate-limits.js'
import { MemoryCounterStore } from '../../src/host/limits/window-counter.js'
import { ipKey } from '../../src/host/limits/ip-limit.js'
import { isHostedHandle } from '../../src/host/groups/handle-domains.js'
import { pruneIntervalMs, retentionText } from '../../src/host/change-log-retention.js'

const args = (...more: string[]) => parseHostArgs(['--plc-url', 'http://127.0.0.1:1', ...more])

describe('host configuration: rate limits and handle domains', () => {
  it('defaults to decisions 6.4: createGroup 10, procedures 3,000, queries 10,000 an hour per account', () => {
    const config = args()
    if (config === 'help') throw new Error('unexpected help')
    expect(config.rateLimits).toEqual({ createGroup: 10, procedures: 3000, queries: 10000, unauthenticated: 3000, windowSeconds: 3600 })
    expect(config.rateLimits).toEqual(DEFAULT_RATE_LIMITS)
  })

  it('changes some limits with --rate-limits, turns them off with off or 0, and refuses nonsense', () => {
    expect(parseRateLimits('createGroup=5,window=600')).toEqual({ ...DEFAULT_RATE_LIMITS, createGroup: 5, windowSeconds: 600 })
    expect(parseRateLimits('queries=0').queries).toBe(0)
    expect(parseRateLimits('off')).toMatchObject({ createGroup: 0, procedures: 0, queries: 0, unauthenticated: 0 })
    for (const bad of ['createGroup', 'createGroup=-1', 'groups=5', 'window=0', 'queries=1e3']) {
      expect(() => args('--rate-limits', bad), bad).toThrow(UsageError)
    }
  })

  it('caps the groups one account may create at 100 unless --max-groups-per-account says otherwise (at least 1)', () => {
    expect((args() as { maxGroupsPerAccount: number }).maxGroupsPerAccount).toBe(100)
    expect((args('--max-groups-per-account', '5') as { maxGroupsPerAccount: number }).maxGroupsPerAccount).toBe(5)
    for (const bad of ['0', '-1', '2.5', 'many', '']) expect(() => args(`--max-groups-per-account=${bad}`), bad).toThrow(UsageError)
    expect(HOST_USAGE).toMatch(/--max-groups-per-account <n>/)
  })

  it('keeps the change log 30 days unless --change-log-days says otherwise (any positive number of days)', () => {
    expect((args() as { changeLogDays: number }).changeLogDays).toBe(30)
    expect((args('--change-log-days', '7') as { changeLogDays: number }).changeLogDays).toBe(7)
    expect((args('--change-log-days', '0.5') as { changeLogDays: number }).changeLogDays).toBe(0.5)
    for (const bad of ['0', '-1', 'forever', '', 'Infinity', '1e9']) expect(() => args(`--change-log-days=${bad}`), bad).toThrow(UsageError)
    expect(HOST_USAGE).toMatch(/--change-log-days <n>/)
    expect(retentionText(30)).toBe('30 days')
    expect(retentionText(0.5)).toBe('12 hours')
    expect(retentionText(3 / 86_400)).toBe('3 seconds')
    expect(pruneIntervalMs(30)).toBe(3_600_000)
    expect(pruneIntervalMs(1 / 24)).toBe(360_000)
  })

  it('takes several --handle-domain, with or without the leading dot; defaults from the public URL', () => {
    const config = args('--handle-domain', 'groups.example.com', '--handle-domain', '.Clubs.Example.org')
    if (config === 'help') throw new Error('unexpected help')
    expect(config.handleDomains).toEqual(['.groups.example.com', '.clubs.example.org'])
    expect((args() as { handleDomains: string[] }).handleDomains).toEqual(['.groups.test'])
    expect((args('--public-url', 'https://groups.example.net') as { handleDomains: string[] }).handleDomains).toEqual(['.groups.example.net'])
    expect((args('--public-url', 'http://127.0.0.1:2590') as { handleDomains: string[] }).handleDomains).toEqual(['.groups.test'])
    expect(() => args('--handle-domain', 'not a domain')).toThrow(UsageError)
  })

  it('--help says how to set them', () => {
    expect(HOST_USAGE).toMatch(/--rate-limits/)
    expect(HOST_USAGE).toMatch(/--handle-domain/)
    expect(HOST_USAGE).toMatch(/createGroup \(per account, default 10\)/)
  })

  it('vouches for one name under a domain only', () => {
    const domains = ['.groups.test']
    expect(isHostedHandle('book-club.groups.test', domains)).toBe(true)
    expect(isHostedHandle('Book-Club.Groups.Test', domains)).toBe(true)
    for (const h of ['groups.test', 'a.b.groups.test', 'something.bsky.social', 'xgroups.test', 'x.groups.test.evil.com']) {
      expect(isHostedHandle(h, domains), h).toBe(false)
    }
  })
})

describe('fixed-window counters', () => {
  it('count within a clock-aligned window and start again in the next', async () => {
    let now = 7_200_000 + 1_000
    const store = new MemoryCounterStore(() => now)
    try {
      expect(await store.hit('k', 1, 3_600_000)).toEqual({ count: 1, resetAt: 10_800_000 })
      expect((await store.hit('k', 1, 3_600_000)).count).toBe(2)
      expect((await store.peek('k', 3_600_000)).count).toBe(2)
      expect((await store.peek('other', 3_600_000)).count).toBe(0)
      now = 10_800_000
      expect((await store.peek('k', 3_600_000)).count).toBe(0)
      expect(await store.hit('k', 1, 3_600_000)).toEqual({ count: 1, resetAt: 14_400_000 })
    } finally {
      store.close()
    }
  })

  it('count IPv4 addresses alone and IPv6 by their /64', () => {
    expect(ipKey('203.0.113.7')).toBe('203.0.113.7')
    expect(ipKey('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(ipKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
    expect(ipKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64')
    expect(ipKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(ipKey('::1')).toBe('0:0:0:0::/64')
    expect(ipKey(undefined)).toBe('unknown')
  })
})
