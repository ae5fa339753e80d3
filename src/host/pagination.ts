import { refuse } from './errors.js'

/** Lists take `limit` (default 50, max 100; the lexicons enforce the range). */
export const DEFAULT_LIMIT = 50

/**
 * Every keyset page on this host has one cursor grammar: base64url of the JSON of the
 * last row's sort key, the value itself when a list is ordered by one column and an
 * array of them when by several (ties broken by a unique column). Cursors are opaque
 * to clients. A change-log cursor, a bare `seq`, reads as it always has; a cursor of
 * another form (an older grammar, a forged or truncated one) is malformed input.
 */
export type KeyPart = string | number
export type SortKey = KeyPart | readonly KeyPart[]

/** What each part of a list's sort key is: `int` a non-negative integer (a row id, a `seq`). */
export type PartKind = 'string' | 'int'
type PartOf<K extends PartKind> = K extends 'int' ? number : string
type KeyOf<S extends readonly PartKind[]> = S extends readonly [infer One extends PartKind] ? PartOf<One> : { readonly [I in keyof S]: PartOf<S[I]> }

export const encodeCursor = (key: SortKey): string => Buffer.from(JSON.stringify(key)).toString('base64url')

/** The sort key a cursor names, checked against the list's key `shape`; none: the first page. */
export function decodeCursor<const S extends readonly PartKind[]>(cursor: string | undefined, shape: S): KeyOf<S> | undefined {
  if (cursor === undefined) return undefined
  const malformed = () => refuse('InvalidRequest', 'Malformed cursor')
  let key: unknown
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw malformed()
  }
  const parts = shape.length === 1 ? [key] : key
  if (!Array.isArray(parts) || parts.length !== shape.length || !parts.every((p, i) => fits(p, shape[i]!))) throw malformed()
  if (encodeCursor(key as SortKey) !== cursor) throw malformed()
  return key as KeyOf<S>
}

const fits = (part: unknown, kind: PartKind): boolean =>
  kind === 'int' ? typeof part === 'number' && Number.isSafeInteger(part) && part >= 0 : typeof part === 'string' && part.length > 0

/** Fetch one more than asked (`limit + 1`), to know whether a next page exists. */
export function page<T>(rows: T[], limit: number, keyOf: (row: T) => SortKey) {
  const more = rows.length > limit
  const items = more ? rows.slice(0, limit) : rows
  return { items, cursor: more ? encodeCursor(keyOf(items[items.length - 1]!)) : undefined }
}
