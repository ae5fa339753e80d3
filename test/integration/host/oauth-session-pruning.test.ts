import crypto from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import type { HostDb } from '../../../src/host/db/index.js'
import { useOwnHostDb } from '../../support/own-host-db.js'
import { createSession, endSessionIfReused, liveSession, revokeSession, rotateRefreshToken, sessionByRefreshToken } from '../../../src/host/oauth/sessions.js'
import { RefreshTokens } from '../../../src/host/oauth/refresh-tokens.js'

/**
 * Group sessions the host signed in (issue 14) do not pile up for ever: a session that
 * ended (expired or revoked) more than a day ago is deleted when the next one is made.
 * And a refresh token used again after its rotation ends its session (issue 22). Runs
 * on SQLite, and on PostgreSQL in the PostgreSQL run.
 */
const DAY_S = 24 * 3600
let db: HostDb
useOwnHostDb({ groupCommit: false }, (opened) => (db = opened))
const tokens = new RefreshTokens(crypto.randomBytes(32))

const session = (n: number, development = false) =>
  createSession(db, tokens, {
    groupDid: 'did:plc:group',
    personDid: `did:plc:person${n}`,
    clientId: 'https://app.example/client-metadata.json',
    scope: 'atproto',
    roles: '["owner"]',
    jkt: `jkt-${n}`,
    codeHash: `code-${n}-${crypto.randomUUID()}`,
    development,
  })
const at = (s: number) => vi.setSystemTime(s * 1000)
const count = async () => Number((await db.selectFrom('oauth_session').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)

describe('ended group sessions', () => {
  it('a revoked session stays a day (a late refresh is still told it was revoked), then goes when a new one is made', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const start = 2_000_000_000
      at(start)
      const revoked = await session(1)
      const expiring = await session(2, true) // a development client's day-long session
      const kept = await session(3)
      await revokeSession(db, revoked.id)
      expect(await liveSession(db, revoked.id)).toBeUndefined()
      expect(await liveSession(db, kept.id)).toBeDefined()

      // Within the day after it ended, the revoked session is still there, recognisably ended.
      at(start + DAY_S - 60)
      await session(4)
      expect((await sessionByRefreshToken(db, revoked.refreshToken))?.revokedAt).toBe(start)
      expect(await count()).toBe(4)

      // A day and more after: the revoked one is gone; the development session, which
      // ended a day after it began, is still within its day; the week-long ones stay.
      at(start + DAY_S + 60)
      await session(5)
      expect(await sessionByRefreshToken(db, revoked.refreshToken)).toBeUndefined()
      expect(await sessionByRefreshToken(db, expiring.refreshToken)).toBeDefined()
      expect(await liveSession(db, kept.id)).toBeDefined()

      at(start + 2 * DAY_S + 60)
      await session(6)
      expect(await sessionByRefreshToken(db, expiring.refreshToken)).toBeUndefined()
      expect(await liveSession(db, kept.id)).toBeDefined()
      expect(await count()).toBe(4)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('a refresh token used again', () => {
  it('ends its session once rotated out: the newer token is refused too', async () => {
    const { id, refreshToken: first } = await session(10)
    const second = await rotateRefreshToken(db, tokens, id, first)
    expect(second).toBeDefined()
    // The current token is no reuse; a token of another host's secret or made up is none either.
    expect(await endSessionIfReused(db, tokens, second!)).toBe(false)
    expect(await endSessionIfReused(db, new RefreshTokens(crypto.randomBytes(32)), first)).toBe(false)
    expect(await endSessionIfReused(db, tokens, `${id}.forged.forged`)).toBe(false)
    expect(await liveSession(db, id)).toBeDefined()

    expect(await endSessionIfReused(db, tokens, first)).toBe(true)
    expect(await liveSession(db, id)).toBeUndefined()
    expect((await sessionByRefreshToken(db, second!))?.revokedAt).not.toBeNull()
    expect(await rotateRefreshToken(db, tokens, id, second!)).toBeUndefined()
  })
})
