import { describe, expect, it } from 'vitest'
import { undeclaredAtGroupHost } from '../../src/shared/declared-scopes.js'

const G = 'did:plc:abcdefghijklmnopqrstuvwx'
const OTHER = 'did:plc:zyxwvutsrqponmlkjihgfedc'
const EVENT = 'community.lexicon.calendar.event'
const IMAGE = 'example.groups.eventImage'
const space = (params: string) => `space:community.lexicon.calendar?${params}`

describe('what a client declares, as a group host reads it (decisions 7.4)', () => {
  it('takes the exact strings a client lists, and names what it does not', () => {
    expect(undeclaredAtGroupHost('atproto rpc:a.b.c?aud=*', 'atproto rpc:a.b.c?aud=*')).toEqual([])
    expect(undeclaredAtGroupHost('atproto', 'atproto rpc:a.b.c?aud=*')).toEqual(['rpc:a.b.c?aud=*'])
  })

  it('reads a space scope without authority, or with authority=*, as covering that space in any group', () => {
    const asked = `atproto ${space(`authority=${G}&skey=self&collection=${EVENT}&action=create`)}`
    expect(undeclaredAtGroupHost(`atproto ${space(`skey=self&collection=${EVENT}`)}`, asked)).toEqual([])
    expect(undeclaredAtGroupHost(`atproto ${space(`authority=*&skey=self&collection=${EVENT}&action=create&action=update`)}`, asked)).toEqual([])
  })

  it('never lets a declaration naming one group cover another', () => {
    const asked = space(`authority=${OTHER}&skey=self&collection=${EVENT}`)
    expect(undeclaredAtGroupHost(`atproto ${space(`authority=${G}&skey=self&collection=${EVENT}`)}`, `atproto ${asked}`)).toEqual([asked])
  })

  it('covers no other space, key, collection or action than the declared ones', () => {
    const declared = `atproto ${space(`skey=self&collection=${EVENT}&action=create&action=update`)}`
    const refusedAsks = [
      `space:example.other?authority=${G}&skey=self&collection=${EVENT}`,
      space(`authority=${G}&skey=other&collection=${EVENT}&action=create`),
      space(`authority=${G}&skey=self&collection=${IMAGE}&action=create`),
      space(`authority=${G}&skey=self&collection=*&action=create`),
      space(`authority=${G}&skey=self&collection=${EVENT}&action=delete`),
      // No action means all three, delete included.
      space(`authority=${G}&skey=self&collection=${EVENT}`),
    ]
    for (const asked of refusedAsks) expect(undeclaredAtGroupHost(declared, `atproto ${asked}`), asked).toEqual([asked])
  })

  it('lets a declared wildcard collection cover any one collection, and a malformed declaration cover nothing', () => {
    const asked = space(`authority=${G}&skey=self&collection=${IMAGE}&action=create`)
    expect(undeclaredAtGroupHost(`atproto ${space('skey=self&collection=*')}`, `atproto ${asked}`)).toEqual([])
    expect(undeclaredAtGroupHost(`atproto ${space('skey=self&collection=*&colour=blue')}`, `atproto ${asked}`)).toEqual([asked])
  })
})
