import { describe, expect, it } from 'vitest'
import { decodeCursor, encodeCursor, page } from '../../src/host/pagination.js'
import { changeCursor, parseChangeCursor } from '../../src/host/changes.js'

const b64 = (s: string) => Buffer.from(s).toString('base64url')
const refused = (f: () => unknown) => expect(f).toThrow(expect.objectContaining({ error: 'InvalidRequest', message: 'Malformed cursor' }))

describe('keyset cursors: one grammar for every paged list', () => {
  it('reads back the key a page ended on, one column or several', () => {
    const { items, cursor } = page([{ at: 't1', id: 'a' }, { at: 't2', id: 'b' }, { at: 't3', id: 'c' }], 2, (r) => [r.at, r.id])
    expect(items).toHaveLength(2)
    expect(decodeCursor(cursor, ['string', 'string'])).toEqual(['t2', 'b'])
    expect(decodeCursor(encodeCursor(17), ['int'])).toBe(17)
    expect(decodeCursor(encodeCursor([3, 0]), ['int', 'int'])).toEqual([3, 0])
    expect(decodeCursor(undefined, ['string'])).toBeUndefined()
    expect(page([1, 2], 2, (n) => n).cursor).toBeUndefined()
  })

  it('keeps the change-log cursors clients already hold: a bare seq', () => {
    expect(changeCursor(42)).toBe(b64('42'))
    expect(parseChangeCursor(b64('42'))).toBe(42)
    expect(parseChangeCursor(undefined)).toBe(0)
  })

  it('refuses cursors of another shape, forged or of the older grammars, as malformed input', () => {
    for (const bad of ['%%%', b64('abc'), b64('-1'), b64('1.0'), b64('007'), b64('"x"')]) refused(() => parseChangeCursor(bad))
    // The older page grammars: "createdAt id", "reports:history", a bare DID.
    refused(() => decodeCursor(b64('2026-01-01T00:00:00.000Z abc'), ['string', 'string']))
    refused(() => decodeCursor(b64('3:4'), ['int', 'int']))
    refused(() => decodeCursor(b64('did:plc:abc'), ['string']))
    refused(() => decodeCursor(encodeCursor(['a']), ['string', 'string']))
    refused(() => decodeCursor(encodeCursor(['a', 1]), ['string', 'string']))
    refused(() => decodeCursor(encodeCursor(''), ['string']))
    refused(() => decodeCursor(encodeCursor('x') + 'A', ['string']))
  })
})
