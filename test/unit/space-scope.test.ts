import { describe, expect, it } from 'vitest'
import { formatSpaceScope, parseSpaceScope, spaceScopesFor, spaceScopesIn, type SpaceAction } from '../../src/shared/space-scope.js'
import { allowsCalendar, CALENDAR_EVENT_COLLECTION, groupSessionScope } from '../../src/shared/group-scope.js'
import { allowsCollection } from '../../src/host/spaces/space.js'
import { spaceScope } from '../../src/host/spaces/scope.js'

const G = 'did:plc:abcdefghijklmnopqrstuvwx'
const OTHER = 'did:plc:otherbbbbbbbbbbbbbbbbbbb'
const CAL = 'space:community.lexicon.calendar'
const EVENT = 'collection=community.lexicon.calendar.event'
const ALL = ['create', 'update', 'delete']

describe('space: scopes (spec section 5.7)', () => {
  it.each([
    ['the shape hosts grant', `${CAL}?authority=${G}&skey=self&${EVENT}&action=create&action=update&action=delete`, { authority: G, actions: ALL }],
    ['no action: all three', `${CAL}?authority=${G}&skey=self&${EVENT}`, { actions: ALL }],
    ['actions named twice, once each', `${CAL}?authority=${G}&skey=self&${EVENT}&action=delete&action=delete`, { actions: ['delete'] }],
    ['collections named twice, once each', `${CAL}?authority=${G}&skey=self&${EVENT}&${EVENT}`, { collections: [CALENDAR_EVENT_COLLECTION] }],
    ['every collection', `${CAL}?authority=${G}&skey=self&collection=*`, { collections: ['*'] }],
    ['no authority: every group (decisions 7.4)', `${CAL}?skey=self&${EVENT}`, { authority: null }],
    ['authority=*: every group', `${CAL}?authority=*&skey=self&${EVENT}`, { authority: null }],
    ['a percent-encoded authority', `${CAL}?authority=${encodeURIComponent(G)}&skey=self&${EVENT}`, { authority: G }],
    ['a did:web authority with an encoded port', `${CAL}?authority=did:web:localhost%253A2583&skey=self&${EVENT}`, { authority: 'did:web:localhost%3A2583' }],
    ['parameters in any order', `${CAL}?action=create&${EVENT}&skey=self&authority=${G}`, { authority: G, actions: ['create'] }],
    ['a plain space type', `space:members?authority=${G}&skey=self&collection=example.groups.acceptance`, { type: 'members' }],
  ])('reads %s', (_why, token, expected) => {
    expect(parseSpaceScope(token)).toMatchObject(expected)
  })

  it.each([
    ['another resource', `repo:community.lexicon.calendar.event`],
    ['no parameters', CAL],
    ['an empty query', `${CAL}?`],
    ['no skey', `${CAL}?authority=${G}&${EVENT}`],
    ['two skeys', `${CAL}?authority=${G}&skey=self&skey=other&${EVENT}`],
    ['two authorities', `${CAL}?authority=${G}&authority=${G}&skey=self&${EVENT}`],
    ['no collection', `${CAL}?authority=${G}&skey=self`],
    ['an unknown action', `${CAL}?authority=${G}&skey=self&${EVENT}&action=create&action=read`],
    ['an unknown parameter', `${CAL}?authority=${G}&skey=self&${EVENT}&aud=*`],
    ['a bad DID', `${CAL}?authority=did:plc:&skey=self&${EVENT}`],
    ['a handle for authority', `${CAL}?authority=alice.test&skey=self&${EVENT}`],
    ['a DID over 2048 characters', `${CAL}?authority=did:web:${'a'.repeat(2041)}&skey=self&${EVENT}`],
    ['a bad NSID', `${CAL}?authority=${G}&skey=self&collection=event`],
    ['an NSID with an empty segment', `${CAL}?authority=${G}&skey=self&collection=community..event`],
    ['an NSID starting with a digit', `${CAL}?authority=${G}&skey=self&collection=1community.lexicon.event`],
    ['a bad skey', `${CAL}?authority=${G}&skey=..&${EVENT}`],
    ['an skey that decodes to a space', `${CAL}?authority=${G}&skey=se+lf&${EVENT}`],
    ['an skey over 512 characters', `${CAL}?authority=${G}&skey=${'k'.repeat(513)}&${EVENT}`],
    ['a path in the type', `space:../x?authority=${G}&skey=self&${EVENT}`],
    ['a percent-encoded type', `space:community%2Elexicon.calendar?authority=${G}&skey=self&${EVENT}`],
    ['an empty type', `space:?authority=${G}&skey=self&${EVENT}`],
  ])('refuses %s', (_why, token) => {
    expect(parseSpaceScope(token)).toBeNull()
  })

  it('writes what it reads, in the spec’s order', () => {
    const token = `${CAL}?authority=${G}&skey=self&${EVENT}&action=create&action=update&action=delete`
    expect(formatSpaceScope(parseSpaceScope(token)!)).toBe(token)
    expect(spaceScope({ groupDid: G, type: 'community.lexicon.calendar', skey: 'self' }, [CALENDAR_EVENT_COLLECTION])).toBe(`atproto ${token}`)
    expect(groupSessionScope(G)).toBe(`atproto ${token}`)
  })

  it('picks the space: scopes out of a scope string, and those for one group with its space’s address', () => {
    const scope = `atproto repo:x ${CAL}?authority=${G}&skey=self&${EVENT} ${CAL}?authority=${OTHER}&skey=self&${EVENT} ${CAL}?skey=s2&${EVENT} space:bad`
    expect(spaceScopesIn(scope)).toHaveLength(3)
    expect(spaceScopesFor(scope, G).map((s) => s.space)).toEqual([`at://${G}/space/community.lexicon.calendar/self`, `at://${G}/space/community.lexicon.calendar/s2`])
    expect(spaceScopesFor(scope, G).every((s) => s.authority === G)).toBe(true)
    expect(spaceScopesIn(scope, 3)).toHaveLength(1)
  })
})

/**
 * What the host lets a session's token write (auth/group-auth.ts reads its scope with
 * spaceScopesFor; spaces/group-writes.ts checks the space, the action and the
 * collection), against what the app offers (allowsCalendar): for the same granted scope
 * they must agree, or the app offers what the host refuses, or hides what it allows.
 */
describe('the host and the app read a granted scope the same way', () => {
  const calendar = `at://${G}/space/community.lexicon.calendar/self`
  const hostAllows = (scope: string, action: SpaceAction) =>
    spaceScopesFor(scope, G).some((s) => s.space === calendar && s.actions.includes(action) && allowsCollection(s.collections, CALENDAR_EVENT_COLLECTION))

  it.each([
    `atproto ${CAL}?authority=${G}&skey=self&${EVENT}`,
    `atproto ${CAL}?authority=${G}&skey=self&${EVENT}&action=update`,
    `atproto ${CAL}?authority=${G}&skey=self&collection=*&action=delete`,
    `atproto ${CAL}?skey=self&${EVENT}&action=create`,
    `atproto ${CAL}?authority=*&skey=self&${EVENT}&action=create&action=delete`,
    `atproto ${CAL}?authority=${encodeURIComponent(G)}&skey=self&${EVENT}`,
    `atproto ${CAL}?authority=${OTHER}&skey=self&${EVENT}`,
    `atproto ${CAL}?authority=${G}&skey=other&${EVENT}`,
    `atproto ${CAL}?authority=${G}&${EVENT}`,
    `atproto ${CAL}?authority=${G}&skey=self&collection=example.groups.eventImage`,
    `atproto ${CAL}?authority=${G}&skey=self&${EVENT}&action=destroy`,
    `atproto ${CAL}?authority=${G}&skey=self&${EVENT}&authority=${OTHER}`,
    `atproto ${CAL}?authority=${G}&skey=self&${EVENT}&extra=1`,
    `atproto space:members?authority=${G}&skey=self&${EVENT}`,
    'atproto',
  ])('%s', (scope) => {
    const offered = ALL.map((a) => allowsCalendar(scope, G, a as SpaceAction))
    expect(offered).toEqual(ALL.map((a) => hostAllows(scope, a as SpaceAction)))
  })

  it('covers both answers (the table above is not all refusals)', () => {
    expect(allowsCalendar(`atproto ${CAL}?skey=self&${EVENT}`, G, 'create')).toBe(true)
    expect(allowsCalendar(`atproto ${CAL}?authority=${G}&${EVENT}`, G, 'create')).toBe(false)
  })
})
