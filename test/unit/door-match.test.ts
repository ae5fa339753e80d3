import { describe, expect, it } from 'vitest'
import { doorIndex, doorQuery, looksLikeHandle, matchDoor, type DoorCandidate } from '../../src/shared/door-match'

const person = (did: string, displayName: string | null, handle: string | null, going = false, member = true): DoorCandidate => ({ did, displayName, handle, going, member })
const PEOPLE = [
  person('did:plc:ann', 'Ann Lee', 'ann.test'),
  person('did:plc:anna', 'Anna Park', 'annapark.test', true),
  person('did:plc:joanne', 'Joanne Smith', 'jo.test', true),
  person('did:plc:jose', 'José Díaz', 'jose.test'),
  person('did:plc:stranger', null, 'annie.example.com', true, false),
  person('did:plc:bob', 'Bob', 'bob.test'),
]
const names = (found: DoorCandidate[]) => found.map((p) => p.displayName ?? p.handle)

describe('door mode search', () => {
  it('lists those who answered going first, then members, then others; better matches first within each', () => {
    const index = doorIndex(PEOPLE)
    // "Anna" and "annie" said going: before "Ann Lee", a member who did not answer; Joanne matches only inside her name, after Anna.
    expect(names(matchDoor(index, 'ann', new Set()))).toEqual(['Anna Park', 'annie.example.com', 'Joanne Smith', 'Ann Lee'])
  })

  it('finds by handle, a leading @ ignored, any case, accents off', () => {
    const index = doorIndex(PEOPLE)
    expect(names(matchDoor(index, '@BOB', new Set()))).toEqual(['Bob'])
    expect(names(matchDoor(index, 'jose', new Set()))).toEqual(['José Díaz'])
    expect(names(matchDoor(index, 'diaz', new Set()))).toEqual(['José Díaz'])
    expect(names(matchDoor(index, 'smi', new Set()))).toEqual(['Joanne Smith'])
  })

  it('puts those already checked in last, and shows nothing for nothing typed or no match', () => {
    const index = doorIndex(PEOPLE)
    expect(names(matchDoor(index, 'ann', new Set(['did:plc:anna'])))).toEqual(['annie.example.com', 'Joanne Smith', 'Ann Lee', 'Anna Park'])
    expect(matchDoor(index, '  ', new Set())).toEqual([])
    expect(matchDoor(index, 'zzz', new Set())).toEqual([])
  })

  it('shows at most the limit', () => {
    const many = Array.from({ length: 50 }, (_, i) => person(`did:plc:p${i}`, `Person ${i}`, `p${i}.test`))
    expect(matchDoor(doorIndex(many), 'person', new Set(), 5)).toHaveLength(5)
  })

  it('tells a handle to look up from a name', () => {
    expect(looksLikeHandle('sam.example.com')).toBe(true)
    expect(looksLikeHandle('@sam.bsky.social')).toBe(true)
    expect(looksLikeHandle('Sam Smith')).toBe(false)
    expect(looksLikeHandle('sam')).toBe(false)
    expect(doorQuery(' @Sam ')).toBe('sam')
  })
})
