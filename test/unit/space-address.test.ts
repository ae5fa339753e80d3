import { describe, expect, it } from 'vitest'
import { formatSpaceAddress, isValidSpaceType, parseRecordAddress, parseSpaceAddress, parseSpaceRecordAddress, spaceIndexKey, spaceRecordAddress } from '../../src/shared/space-address.js'

const G = 'did:plc:abcdefghijklmnopqrstuvwx'
const M = 'did:plc:memberaaaaaaaaaaaaaaaaaa'
const CAL = `at://${G}/space/community.lexicon.calendar/self`

describe('space addresses (spec section 2)', () => {
  it.each([
    [CAL, { authority: G, type: 'community.lexicon.calendar', skey: 'self' }],
    [`at://${G}/space/members/self`, { authority: G, type: 'members', skey: 'self' }],
    [`at://${G}/space/example.notes/admins`, { authority: G, type: 'example.notes', skey: 'admins' }],
    ['at://did:web:localhost%3A2583/space/a.b/self', { authority: 'did:web:localhost%3A2583', type: 'a.b', skey: 'self' }],
    [`at://${G}/space/a.b/3jzfcijpj2z2a`, { authority: G, type: 'a.b', skey: '3jzfcijpj2z2a' }],
    [`at://${G}/space/a.b/k:v~x_y-z.1`, { authority: G, type: 'a.b', skey: 'k:v~x_y-z.1' }],
  ])('reads %s', (address, parsed) => {
    expect(parseSpaceAddress(address)).toEqual(parsed)
    expect(formatSpaceAddress(parsed)).toBe(address)
  })

  it.each([
    ['no scheme', `${G}/space/a.b/self`],
    ['another scheme', `https://${G}/space/a.b/self`],
    ['an upper-case scheme', `AT://${G}/space/a.b/self`],
    ['a handle for authority', 'at://alice.test/space/a.b/self'],
    ['a bad DID', 'at://did:PLC:abc/space/a.b/self'],
    ['a DID ending in ":"', 'at://did:plc:/space/a.b/self'],
    ['not /space/', `at://${G}/spaces/a.b/self`],
    ['no skey', `at://${G}/space/a.b`],
    ['an empty skey', `at://${G}/space/a.b/`],
    ['a trailing slash', `${CAL}/`],
    ['a doubled slash', `at://${G}//space/a.b/self`],
    ['a query', `${CAL}?x=1`],
    ['a fragment', `${CAL}#x`],
    ['a type with an empty segment', `at://${G}/space/a..b/self`],
    ['a type starting with a digit', `at://${G}/space/1a.b/self`],
    ['a percent-encoded type', `at://${G}/space/community%2Elexicon.calendar/self`],
    ['a percent-encoded skey', `at://${G}/space/a.b/se%6Cf`],
    ['skey "."', `at://${G}/space/a.b/.`],
    ['skey ".."', `at://${G}/space/a.b/..`],
    ['a space in the skey', `at://${G}/space/a.b/se lf`],
    ['an skey over 512 characters', `at://${G}/space/a.b/${'k'.repeat(513)}`],
    ['an address over 2048 characters', `at://did:web:${'a'.repeat(2030)}/space/a.b/self`],
    ['a record address', spaceRecordAddress(CAL, M, 'community.lexicon.calendar.event', 'abc')],
  ])('refuses %s', (_why, address) => {
    expect(parseSpaceAddress(address)).toBeNull()
  })

  it('takes the longest skey and type there are', () => {
    expect(parseSpaceAddress(`at://${G}/space/a.b/${'k'.repeat(512)}`)?.skey).toHaveLength(512)
    expect(isValidSpaceType(`a${'.b'.repeat(255)}`)).toBe(true)
    expect(isValidSpaceType(`a${'.b'.repeat(256)}`)).toBe(false)
  })

  it('keys the space index by <type>:<skey>', () => {
    expect(spaceIndexKey(parseSpaceAddress(CAL)!)).toBe('community.lexicon.calendar:self')
  })
})

describe('record addresses', () => {
  const EVENT = spaceRecordAddress(CAL, G, 'community.lexicon.calendar.event', '3jzfcijpj2z2a')

  it.each([
    [EVENT, { space: CAL, repo: G, collection: 'community.lexicon.calendar.event', rkey: '3jzfcijpj2z2a' }],
    [spaceRecordAddress(`at://${G}/space/members/self`, M, 'example.groups.acceptance', 'self'), { space: `at://${G}/space/members/self`, repo: M, collection: 'example.groups.acceptance', rkey: 'self' }],
    [`at://${M}/app.bsky.feed.post/3jzfcijpj2z2a`, { repo: M, collection: 'app.bsky.feed.post', rkey: '3jzfcijpj2z2a' }],
  ])('reads %s', (uri, parsed) => {
    expect(parseRecordAddress(uri)).toEqual(parsed)
  })

  it('tells a record in a space from one in a repository', () => {
    expect(parseSpaceRecordAddress(EVENT)?.space).toBe(CAL)
    expect(parseSpaceRecordAddress(`at://${M}/app.bsky.feed.post/3jzfcijpj2z2a`)).toBeNull()
  })

  it.each([
    ['a space', CAL],
    ['a bare repo', `at://${M}`],
    ['a collection', `at://${M}/app.bsky.feed.post`],
    ['a handle', 'at://alice.test/app.bsky.feed.post/3jzfcijpj2z2a'],
    ['a bad collection NSID', `at://${M}/feed/3jzfcijpj2z2a`],
    ['a collection NSID with an empty segment', `at://${M}/app..post/3jzfcijpj2z2a`],
    ['a bad author DID', spaceRecordAddress(CAL, 'did:plc', 'community.lexicon.calendar.event', 'a')],
    ['a handle for author', spaceRecordAddress(CAL, 'alice.test', 'community.lexicon.calendar.event', 'a')],
    ['a bad rkey', spaceRecordAddress(CAL, M, 'community.lexicon.calendar.event', '..')],
    ['a percent-encoded rkey', spaceRecordAddress(CAL, M, 'community.lexicon.calendar.event', 'a%20b')],
    ['a trailing slash', `${EVENT}/`],
    ['one segment too many', `${EVENT}/x`],
    ['a query', `${EVENT}?cid=x`],
    ['a bad space', `at://${G}/spaces/a.b/self/${M}/community.lexicon.calendar.event/a`],
    ['over 2048 characters, each part valid', spaceRecordAddress(CAL, `did:web:${'a'.repeat(2000)}`, 'community.lexicon.calendar.event', 'a')],
  ])('refuses %s', (_why, uri) => {
    expect(parseRecordAddress(uri)).toBeNull()
  })
})
