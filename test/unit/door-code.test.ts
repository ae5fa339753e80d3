import { doorCodesFor } from '../../src/main/core/calendar/door-codes'
import { describe, expect, it } from 'vitest'
import { typedDoorCode } from '../../src/shared/door-code'
import { doorIndex, matchDoor } from '../../src/shared/door-match'

const codeFor = (group: string, rkey: string, did: string) => doorCodesFor(group, rkey, [did]).get(did)!
const G = 'did:plc:group'
const person = (did: string, displayName: string, code: string | null) => ({ did, handle: `${did.slice(8)}.test`, displayName, going: true, member: true, code })

describe('door codes', () => {
  it('are six characters said as two threes, the same wherever made, and differ by person and by event', () => {
    const a = codeFor(G, '3lbx', 'did:plc:anna')
    expect(a).toMatch(/^[0-9A-HJKMNP-TV-Z]{3}-[0-9A-HJKMNP-TV-Z]{3}$/)
    expect(codeFor(G, '3lbx', 'did:plc:anna')).toBe(a)
    expect(codeFor(G, '3lby', 'did:plc:anna')).not.toBe(a)
    expect(codeFor(G, '3lbx', 'did:plc:otto')).not.toBe(a)
  })

  it('are read as typed whatever the case, spaces and dashes, and O, I, L read as the digits they look like', () => {
    expect(typedDoorCode(' k7f 2qx ')).toBe('K7F-2QX')
    expect(typedDoorCode('K7F-2QX')).toBe('K7F-2QX')
    expect(typedDoorCode('ko1-l0i')).toBe('K01-101')
    expect(typedDoorCode('K7F-2Q')).toBeNull()
    expect(typedDoorCode('anna lee')).toBeNull()
  })

  it('find their person at the door before any name does', () => {
    const anna = person('did:plc:anna', 'Anna', codeFor(G, '3lbx', 'did:plc:anna'))
    const otto = person('did:plc:otto', 'Otto', codeFor(G, '3lbx', 'did:plc:otto'))
    const index = doorIndex([anna, otto])
    expect(matchDoor(index, otto.code!.toLowerCase().replace('-', ' '), new Set())).toEqual([otto])
    // Six letters that are nobody's code are searched as a name.
    expect(matchDoor(index, 'Anna', new Set())).toEqual([anna])
  })
})
