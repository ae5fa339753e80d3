import { afterAll, describe, expect, it } from 'vitest'
import { installLogSink } from '../../src/main/core/log/log.js'
import { plainReason, retryLater } from '../../src/main/core/outbox/send-failures.js'
import { isLastingLimit, lastingLimitWords, limitLiftsAt, tryAgainAfter } from '../../src/main/core/outbox/lasting-limit.js'
import { XrpcCallError } from '../../src/main/core/xrpc/xrpc-error.js'

const NOW = Date.parse('2026-11-25T12:00:00Z')
const refused = (headers: Record<string, string>, opts: { error?: string; message?: string; status?: number } = {}) =>
  new XrpcCallError('example.groups.requestJoin', opts.status ?? 429, opts.error ?? 'RateLimitExceeded', opts.message ?? 'slow down', new Headers(headers))

// A queued action refused with 429: waited out when the limit lifts in a moment, refused
// (and the queue goes on) when it lasts.
describe('which rate limits hold an outbox action and which refuse it', () => {
  installLogSink({ write: () => {} })
  afterAll(() => installLogSink(null))

  it('reads when a limit lifts from Retry-After (seconds or a date), else RateLimit-Reset (Unix seconds, or seconds from now)', () => {
    expect(limitLiftsAt(new Headers({ 'retry-after': '90' }), NOW)).toBe(NOW + 90_000)
    expect(limitLiftsAt(new Headers({ 'retry-after': 'Thu, 26 Nov 2026 12:00:00 GMT' }), NOW)).toBe(Date.parse('2026-11-26T12:00:00Z'))
    expect(limitLiftsAt(new Headers({ 'ratelimit-reset': String(NOW / 1000 + 3600) }), NOW)).toBe(NOW + 3_600_000)
    expect(limitLiftsAt(new Headers({ 'ratelimit-reset': '30' }), NOW)).toBe(NOW + 30_000)
    // Retry-After is relative, so a skewed clock does not matter: it wins.
    expect(limitLiftsAt(new Headers({ 'retry-after': '60', 'ratelimit-reset': String(NOW / 1000 + 86_400) }), NOW)).toBe(NOW + 60_000)
    expect(limitLiftsAt(new Headers({ 'retry-after': 'soon' }), NOW)).toBeUndefined()
    expect(limitLiftsAt(new Headers(), NOW)).toBeUndefined()
    expect(limitLiftsAt(undefined, NOW)).toBeUndefined()
  })

  it('waits out a limit that lifts within two minutes: the action stays queued', () => {
    for (const headers of [{ 'retry-after': '120' }, { 'retry-after': '5' }, { 'ratelimit-reset': String(NOW / 1000 + 100) }] as Record<string, string>[]) {
      const err = refused(headers)
      expect(isLastingLimit(err, NOW), JSON.stringify(headers)).toBe(false)
    }
    // A bare 429 (a proxy in front of the host) is waited out too, as before.
    expect(isLastingLimit(refused({}, { error: 'Http429', message: '' }), NOW)).toBe(false)
    expect(retryLater(refused({ 'retry-after': '30' }))).toBe(true)
  })

  it('refuses the action when the limit lasts longer, or is the host’s own and names no time', () => {
    expect(isLastingLimit(refused({ 'retry-after': '121' }), NOW)).toBe(true)
    expect(isLastingLimit(refused({ 'retry-after': String(23 * 3600) }), NOW)).toBe(true)
    expect(isLastingLimit(refused({ 'ratelimit-limit': '50', 'ratelimit-remaining': '0' }), NOW)).toBe(true)
    expect(retryLater(refused({ 'retry-after': String(23 * 3600) }))).toBe(false)
    expect(retryLater(refused({ 'ratelimit-limit': '50' }))).toBe(false)
    // Other refusals keep their own rules.
    expect(isLastingLimit(refused({ 'retry-after': '9999' }, { status: 503, error: 'ServiceUnavailable' }), NOW)).toBe(false)
    expect(isLastingLimit(new Error('boom'), NOW)).toBe(false)
  })

  it('says so in plain words: the host’s own message, and from when to try again', () => {
    const lifts = NOW + 23 * 3600_000
    const message = 'You have asked to join this group 10 times in the last day, the most this host allows; you may ask again in 23 hours'
    expect(lastingLimitWords(refused({ 'retry-after': String(23 * 3600) }, { message }), NOW)).toBe(
      `The group host refused this: ${message}. You can try again after ${tryAgainAfter(lifts)}.`,
    )
    expect(tryAgainAfter(lifts)).toMatch(/\d/)
    expect(lastingLimitWords(refused({}, { message: 'You have 50 reports waiting for this group’s moderators.' }), NOW)).toBe(
      'The group host refused this: You have 50 reports waiting for this group’s moderators.',
    )
    // What the pending changes list shows (plainReason), not "slow down for a moment".
    expect(plainReason(refused({ 'retry-after': String(23 * 3600) }, { message }))).toMatch(/^The group host refused this: You have asked to join this group 10 times .* You can try again after .+\.$/)
    expect(plainReason(refused({ 'retry-after': '30' }))).toBe('The server asked Convene to slow down for a moment.')
    // A host cannot fill the window with its words.
    expect(lastingLimitWords(refused({}, { message: 'x'.repeat(5000) }), NOW).length).toBeLessThan(400)
    expect(lastingLimitWords(refused({}, { message: '' }), NOW)).toBe('The group host refused this: You have reached one of its limits.')
  })
})
