import type { HostDb } from '../db/index.js'
import type { OAuthSessionTable } from '../db/schema.js'
import { hashToken, nowS, randomToken } from './secrets.js'
import type { RefreshTokens } from './refresh-tokens.js'

/**
 * How long a group session may be refreshed. atproto's servers give development
 * (`http://localhost`) clients short sessions; others get a week here, each refresh
 * re-checking the person's roles.
 */
const SESSION_TTL_S = { development: 24 * 3600, other: 7 * 24 * 3600 }

/**
 * An ended session (expired or revoked) is kept this long, so a late refresh or a
 * replayed code is still recognised in the logs as one that ended, then deleted: a
 * host that signs people in for years should not keep every session it ever made.
 */
const ENDED_KEPT_S = 24 * 3600

export async function createSession(
  db: HostDb,
  tokens: RefreshTokens,
  s: Omit<OAuthSessionTable, 'id' | 'refreshHash' | 'createdAt' | 'expiresAt' | 'revokedAt'> & { development: boolean },
): Promise<{ id: string; refreshToken: string }> {
  const id = randomToken(16)
  const refreshToken = tokens.issue(id)
  const now = nowS()
  const { development, ...row } = s
  await pruneEndedSessions(db, now)
  await db
    .insertInto('oauth_session')
    .values({ ...row, id, refreshHash: hashToken(refreshToken), createdAt: now, expiresAt: now + SESSION_TTL_S[development ? 'development' : 'other'], revokedAt: null })
    .execute()
  return { id, refreshToken }
}

/** Whether a session row is neither revoked nor past its end. */
export const isLive = (row: OAuthSessionTable) => !row.revokedAt && row.expiresAt > nowS()

/** A session that is neither revoked nor past its end. */
export async function liveSession(db: HostDb, id: string): Promise<OAuthSessionTable | undefined> {
  const row = await db.selectFrom('oauth_session').selectAll().where('id', '=', id).executeTakeFirst()
  return row && isLive(row) ? row : undefined
}

export const sessionByRefreshToken = (db: HostDb, token: string) =>
  db.selectFrom('oauth_session').selectAll().where('refreshHash', '=', hashToken(token)).executeTakeFirst()

export const sessionByCode = (db: HostDb, codeHash: string) =>
  db.selectFrom('oauth_session').selectAll().where('codeHash', '=', codeHash).executeTakeFirst()

/**
 * Swaps the refresh token (RFC 9700 section 4.14.2: rotation). Only one of two
 * concurrent refreshes with the same token wins; the other finds no row.
 */
export async function rotateRefreshToken(db: HostDb, tokens: RefreshTokens, id: string, oldToken: string): Promise<string | undefined> {
  const refreshToken = tokens.issue(id)
  const res = await db
    .updateTable('oauth_session')
    .set({ refreshHash: hashToken(refreshToken) })
    .where('id', '=', id)
    .where('refreshHash', '=', hashToken(oldToken))
    .where('revokedAt', 'is', null)
    .executeTakeFirst()
  return Number(res.numUpdatedRows) === 1 ? refreshToken : undefined
}

/**
 * When `presented` is a refresh token the host issued that is not its session's current
 * one, it was rotated out and is being used again: a sign that it was copied (RFC 9700
 * section 4.14.2). The session ends, so the newer refresh token and every access token
 * stop working too. Says whether that was so.
 */
export async function endSessionIfReused(db: HostDb, tokens: RefreshTokens, presented: string): Promise<boolean> {
  const id = tokens.sessionOf(presented)
  if (!id) return false
  const current = await db.selectFrom('oauth_session').select('refreshHash').where('id', '=', id).executeTakeFirst()
  if (!current || current.refreshHash === hashToken(presented)) return false
  await revokeSession(db, id)
  return true
}

/** Ends a session now: its end moves up to now too, so pruning finds it by `expiresAt` (indexed). */
export async function revokeSession(db: HostDb, id: string): Promise<void> {
  const now = nowS()
  await db
    .updateTable('oauth_session')
    .set((eb) => ({ revokedAt: now, expiresAt: eb.case().when('expiresAt', '>', now).then(now).else(eb.ref('expiresAt')).end() }))
    .where('id', '=', id)
    .where('revokedAt', 'is', null)
    .execute()
}

/** Deletes sessions that ended more than a day ago (run whenever a session is made, as PAR prunes requests). */
export async function pruneEndedSessions(db: HostDb, now = nowS()): Promise<number> {
  const res = await db.deleteFrom('oauth_session').where('expiresAt', '<', now - ENDED_KEPT_S).executeTakeFirst()
  return Number(res.numDeletedRows)
}
