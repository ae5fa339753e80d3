import { refuse } from './errors.js'

/** Lists take `limit` (default 50, max 100; the lexicons enforce the range). */
export const DEFAULT_LIMIT = 50

/**
 * Cursors are opaque to clients: base64url of the last row's sort key. A cursor that
 * does not decode is malformed input.
 */
export const encodeCursor = (key: string | number) => Buffer.from(String(key)).toString('base64url')

export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined
  const key = Buffer.from(cursor, 'base64url').toString('utf8')
  if (!key || encodeCursor(key) !== cursor) throw refuse('InvalidRequest', 'Malformed cursor')
  return key
}

/** Fetch one more than asked, to know whether a next page exists. */
export function page<T>(rows: T[], limit: number, keyOf: (row: T) => string | number) {
  const more = rows.length > limit
  const items = more ? rows.slice(0, limit) : rows
  return { items, cursor: more ? encodeCursor(keyOf(items[items.length - 1]!)) : undefined }
}
