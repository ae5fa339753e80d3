/**
 * Database errors that are the caller's or the moment's, not bugs, on either store
 * (issue 18): SQLite reports them as `SQLITE_*` codes, PostgreSQL as SQLSTATEs.
 */

/** A unique, foreign-key or check constraint refused the write: the request conflicts with the state. */
export function isConstraintViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return false
  // PostgreSQL's class 23: integrity constraint violation.
  return /SQLITE_CONSTRAINT/.test(code) || /^23[0-9A-Z]{3}$/.test(code)
}

/**
 * The database could not take the request just now: SQLite locked past its busy timeout,
 * or PostgreSQL refusing a transaction that collided with another (serialization
 * failure, deadlock) or could not get a lock in time. Nothing was done; retrying works.
 */
export function isTransientDbError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return false
  return /^SQLITE_(BUSY|LOCKED)/.test(code) || code === '40001' || code === '40P01' || code === '55P03'
}
