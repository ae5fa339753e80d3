import { describe, expect, it } from 'vitest'
import { eventChangeNote, reminderNote } from '../../src/renderer/src/composables/event-notifications.js'
import type { MyComingEvent } from '../../src/shared/ipc/views.js'

const tag = (rkey: string) => `event g ${rkey}`
const base: MyComingEvent = { rkey: 'e1', name: 'Harbour walk', startsAt: '2026-12-05T18:00:00Z', status: 'scheduled', myRsvp: 'going', standing: 'waitlisted', pending: false }
const titleOf = (before: MyComingEvent | undefined, now: MyComingEvent) => eventChangeNote(before, now, 'Sea club', tag)?.title ?? null

describe('what a person going to an event is told', () => {
  it('says a place opened, a cancellation, a new time and a postponement, one note per event', () => {
    expect(titleOf(base, { ...base, standing: 'going' })).toBe('You have a place at Harbour walk')
    expect(titleOf(base, { ...base, status: 'cancelled' })).toBe('Harbour walk is cancelled')
    expect(titleOf(base, { ...base, startsAt: '2026-12-06T18:00:00Z' })).toBe('Harbour walk has moved')
    expect(titleOf(base, { ...base, status: 'postponed' })).toBe('Harbour walk is postponed')
    expect(eventChangeNote(base, { ...base, status: 'cancelled' }, 'Sea club', tag)).toMatchObject({ tag: 'event g e1', body: expect.stringContaining('Sea club') })
  })

  it('says nothing for the person’s own change, an event first seen, the same time written another way, or more news about a cancelled one', () => {
    expect(titleOf(base, { ...base, status: 'cancelled', pending: true })).toBeNull()
    expect(titleOf({ ...base, pending: true }, { ...base, status: 'cancelled' })).toBeNull()
    expect(titleOf(undefined, { ...base, status: 'cancelled' })).toBeNull()
    expect(titleOf(base, { ...base, startsAt: '2026-12-05T19:00:00+01:00' })).toBeNull()
    expect(titleOf({ ...base, status: 'cancelled' }, { ...base, status: 'cancelled', startsAt: '2026-12-09T18:00:00Z' })).toBeNull()
    expect(titleOf(base, base)).toBeNull()
  })

  it('reminds within a day of the start, only those going with a place to an event still on', () => {
    const now = Date.parse('2026-12-04T20:00:00Z')
    const going = { ...base, standing: 'going' as const }
    expect(reminderNote(going, 'Sea club', tag, now)).toMatchObject({ title: 'Harbour walk starts in 22 hours', tag: 'remind event g e1' })
    expect(reminderNote({ ...going, standing: null }, 'Sea club', tag, now)?.title).toBe('Harbour walk starts in 22 hours')
    expect(reminderNote(going, 'Sea club', tag, Date.parse('2026-12-03T17:00:00Z'))).toBeNull()
    expect(reminderNote(going, 'Sea club', tag, Date.parse('2026-12-05T18:00:01Z'))).toBeNull()
    for (const e of [base, { ...going, myRsvp: 'interested' as const }, { ...going, status: 'cancelled' as const }, { ...going, status: 'postponed' as const }]) expect(reminderNote(e, 'Sea club', tag, now)).toBeNull()
  })
})
