import { describe, expect, it } from 'vitest'
import { abilitiesSummary, allowsCalendar, groupAbilities, groupSessionScope } from '../../src/shared/group-scope.js'

const group = 'did:plc:groupaaaaaaaaaaaaaaaaaaa'
const other = 'did:plc:otherbbbbbbbbbbbbbbbbbbb'
const calendar = (did: string, actions = '&action=create&action=update&action=delete') =>
  `space:community.lexicon.calendar?authority=${did}&skey=self&collection=community.lexicon.calendar.event${actions}`

describe('acting as a group: what a granted scope allows', () => {
  it('asks for the group calendar’s events in the spec’s grant shape, and that scope allows all three actions', () => {
    const asked = groupSessionScope(group)
    expect(asked).toBe(`atproto ${calendar(group)}`)
    expect(groupAbilities(asked, group).map((a) => a.key)).toEqual(['calendar.create', 'calendar.update', 'calendar.delete'])
    expect(groupAbilities(asked, group)[0]!.words).toBe('Add events to the group’s calendar')
  })

  it('offers nothing when the host narrowed the grant to `atproto` alone', () => {
    expect(groupAbilities('atproto', group)).toEqual([])
  })

  it('offers only the actions the grant names', () => {
    expect(groupAbilities(`atproto ${calendar(group, '&action=create')}`, group).map((a) => a.key)).toEqual(['calendar.create'])
  })

  it('gives nothing for another group’s calendar, another space, another collection or an unknown action', () => {
    expect(allowsCalendar(`atproto ${calendar(other)}`, group, 'create')).toBe(false)
    expect(allowsCalendar(`atproto space:community.lexicon.calendar?authority=${group}&skey=other&collection=community.lexicon.calendar.event`, group, 'create')).toBe(false)
    expect(allowsCalendar(`atproto space:community.lexicon.calendar?authority=${group}&skey=self&collection=example.groups.eventImage`, group, 'create')).toBe(false)
    expect(allowsCalendar(`atproto ${calendar(group, '&action=destroy')}`, group, 'delete')).toBe(false)
  })

  it('reads encoded parameters as the host may write them', () => {
    const encoded = `space:community.lexicon.calendar?authority=${encodeURIComponent(group)}&skey=self&collection=community.lexicon.calendar.event`
    expect(groupAbilities(`atproto ${encoded}`, group).map((a) => a.key)).toEqual(['calendar.create', 'calendar.update', 'calendar.delete'])
  })

  it('offers nothing for a scope without a space key: it names no space', () => {
    expect(groupAbilities(`atproto space:community.lexicon.calendar?authority=${group}&collection=community.lexicon.calendar.event`, group)).toEqual([])
  })

  it('sums up a session’s abilities in one line for the switcher', () => {
    expect(abilitiesSummary(['calendar.create', 'calendar.update', 'calendar.delete'])).toBe('May add, change and remove calendar events')
    expect(abilitiesSummary(['calendar.create'])).toBe('May add calendar events')
    expect(abilitiesSummary([])).toBe('May change nothing')
  })
})
