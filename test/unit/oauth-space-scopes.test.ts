import { describe, expect, it } from 'vitest'
import { formatSpaceScope, parseSpaceScope, spaceScopesOf } from '../../src/host/oauth/space-scopes.js'

const G = 'did:plc:abcdefghijklmnopqrstuvwx'

describe('space: scopes (spec section 5.7)', () => {
  it('reads and writes the shape getGroupAuth grants', () => {
    const token = `space:community.lexicon.calendar?authority=${G}&skey=self&collection=community.lexicon.calendar.event&action=create&action=update&action=delete`
    const s = parseSpaceScope(token)!
    expect(s).toMatchObject({
      space: `at://${G}/space/community.lexicon.calendar/self`,
      collections: ['community.lexicon.calendar.event'],
      actions: ['create', 'update', 'delete'],
    })
    expect(formatSpaceScope(s)).toBe(token)
  })

  it('means every action when none is named', () => {
    expect(parseSpaceScope(`space:a.b?authority=${G}&skey=self&collection=a.b.c`)!.actions).toEqual(['create', 'update', 'delete'])
  })

  it('ignores what is not a well-formed space scope', () => {
    for (const t of [
      'space:a.b',
      `space:a.b?skey=self&collection=x`,
      `space:a.b?authority=${G}&authority=${G}&skey=self&collection=x`,
      `space:a.b?authority=${G}&skey=self`,
      `space:a.b?authority=${G}&skey=self&collection=x&action=read`,
      `space:../x?authority=${G}&skey=self&collection=x`,
      `repo:a.b.c`,
    ]) {
      expect(parseSpaceScope(t), t).toBeUndefined()
    }
    expect(spaceScopesOf(`atproto repo:x space:a.b?authority=${G}&skey=self&collection=a.b.c`)).toHaveLength(1)
  })
})
