import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { installLogSink } from '../../src/main/core/log/log.js'
import { plainReason } from '../../src/main/core/outbox/send-failures.js'
import { XrpcCallError } from '../../src/main/core/xrpc/xrpc-error.js'
import { UserFacingError } from '../../src/main/core/ipc/errors.js'

// What the "Changes not yet confirmed" list says about a row that has not gone out.
describe('why a queued change has not gone out, in plain words', () => {
  // What the log receives (the shells put it in a file).
  const logged: { level: string; scope: string; error?: { message: string } }[] = []
  installLogSink({ write: (line) => void logged.push(JSON.parse(line) as (typeof logged)[number]) })
  afterEach(() => void logged.splice(0))
  afterAll(() => installLogSink(null))

  it('a host that cannot be reached is named as such, with no method or socket error', () => {
    const reason = plainReason(new XrpcCallError('example.groups.createInvite', 0, 'HostUnreachable', 'fetch failed'))
    expect(reason).toBe('The group host cannot be reached right now. Your change is kept and will be sent when it is back.')
    expect(reason).not.toMatch(/example\.groups|fetch failed/)
  })

  it('a busy or failing host is said to be so, not given its own message, and the log keeps the detail', () => {
    expect(plainReason(new XrpcCallError('example.groups.admitMember', 503, 'Http503', ''))).toBe('The server could not take it just now (error 503).')
    expect(plainReason(new XrpcCallError('example.groups.admitMember', 500, 'InternalServerError', 'SQLITE_BUSY: database is locked'))).toBe(
      'The server could not take it just now (error 500).',
    )
    // A limit that lifts in a moment (a lasting one is outbox-lasting-limits.test.ts's).
    expect(plainReason(new XrpcCallError('example.groups.admitMember', 429, 'RateLimitExceeded', 'slow down', new Headers({ 'retry-after': '30' })))).toBe(
      'The server asked Convene to slow down for a moment.',
    )
    expect(logged.map((l) => [l.level, l.scope])).toEqual([['warn', 'outbox'], ['warn', 'outbox'], ['warn', 'outbox']])
    expect(logged[0]?.error?.message).toContain('example.groups.admitMember failed (503')
  })

  it('a refusal with a spec error name gets that error’s plain message', () => {
    expect(plainReason(new XrpcCallError('example.groups.addRole', 400, 'NotAssignable', 'role admin not assignable'))).toBe(
      'Your role does not let you give, take away or remove that role.',
    )
  })

  it('a sign-in that ended keeps its own words; our own bug is not shown as a stack', () => {
    expect(plainReason(new UserFacingError('SignInRequired', 'Your sign-in for this account has ended. Sign in again.'))).toBe(
      'Your sign-in for this account has ended. Sign in again.',
    )
    const reason = plainReason(new TypeError('Cannot read properties of undefined (reading "did")'))
    expect(reason).toBe('Something went wrong in Convene. The details are in its log.')
  })
})
