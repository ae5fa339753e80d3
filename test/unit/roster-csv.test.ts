import { describe, expect, it } from 'vitest'
import { rosterCsv } from '../../src/renderer/src/components/members/roster-csv'

const member = (over: Record<string, unknown>) => ({ did: 'did:plc:a', handle: 'a.test', displayName: 'Ada', avatar: null, profileTag: null, roles: ['member'], joinedAt: '2026-01-01T00:00:00.000Z', accepted: true, pending: false, ...over })

describe('the roster as CSV', () => {
  it('has one member a line, by name, bare handle and DID, with roles, joining time and acceptance', () => {
    const lines = rosterCsv([member({}), member({ did: 'did:plc:b', handle: null, displayName: null, roles: ['admin', 'member'], accepted: false })] as never).split('\r\n')
    expect(lines[0]).toBe('name,handle,DID,roles,joined,accepted membership')
    expect(lines[1]).toBe('Ada,a.test,did:plc:a,member,2026-01-01T00:00:00.000Z,yes')
    expect(lines[2]).toBe(',,did:plc:b,admin member,2026-01-01T00:00:00.000Z,no')
  })

  it('defuses a display name a spreadsheet would run as a formula, and quotes commas', () => {
    const text = rosterCsv([member({ displayName: '=HYPERLINK("http://evil")' }), member({ displayName: 'Fern, Otto' })] as never)
    expect(text).toContain(`"'=HYPERLINK(""http://evil"")"`)
    expect(text).toContain('"Fern, Otto"')
  })
})
