import { beforeAll, describe, expect, it } from 'vitest'
import { addMonths, dayKey, eventDayKeys, isoToLocalInputs, localDateTimeToIso, monthWeeks } from '../../src/shared/calendar-dates.js'

// A zone with summer time, so offsets change within the year.
beforeAll(() => {
  process.env.TZ = 'Europe/Berlin'
})

describe('calendar dates, in the viewer’s time zone', () => {
  it('turns the form’s date and time into ISO 8601 with the offset of that day', () => {
    expect(localDateTimeToIso('2026-11-22', '19:00')).toBe('2026-11-22T19:00:00+01:00')
    expect(localDateTimeToIso('2026-07-01', '09:30')).toBe('2026-07-01T09:30:00+02:00')
    expect(new Date(localDateTimeToIso('2026-11-22', '19:00')!).toISOString()).toBe('2026-11-22T18:00:00.000Z')
    expect(localDateTimeToIso('', '19:00')).toBeNull()
    expect(localDateTimeToIso('2026-11-22', '')).toBeNull()
  })

  it('fills the form back in local time, whatever offset the event was stored with', () => {
    expect(isoToLocalInputs('2026-11-22T18:00:00Z')).toEqual({ date: '2026-11-22', time: '19:00' })
    expect(isoToLocalInputs('2026-11-22T13:00:00-05:00')).toEqual({ date: '2026-11-22', time: '19:00' })
  })

  it('lays out a month in whole weeks from the chosen first day', () => {
    const monday = monthWeeks(2026, 10, 1) // November 2026 starts on a Sunday
    expect(dayKey(monday[0]![0]!)).toBe('2026-10-26')
    expect(dayKey(monday.at(-1)!.at(-1)!)).toBe('2026-12-06')
    expect(monday).toHaveLength(6)
    const sunday = monthWeeks(2026, 10, 7)
    expect(dayKey(sunday[0]![0]!)).toBe('2026-11-01')
    expect(sunday).toHaveLength(5)
    expect(monthWeeks(2027, 1, 1)).toHaveLength(4) // February 2027: Monday 1st to Sunday 28th
  })

  it('places an event on every local day it covers', () => {
    expect(eventDayKeys('2026-11-22T19:00:00+01:00')).toEqual(['2026-11-22'])
    expect(eventDayKeys('2026-11-22T22:00:00+01:00', '2026-11-24T01:00:00+01:00')).toEqual(['2026-11-22', '2026-11-23', '2026-11-24'])
    // Ending at midnight stays on the start day.
    expect(eventDayKeys('2026-11-22T20:00:00+01:00', '2026-11-23T00:00:00+01:00')).toEqual(['2026-11-22'])
    // Across the end of summer time.
    expect(eventDayKeys('2026-10-24T12:00:00+02:00', '2026-10-26T12:00:00+01:00')).toEqual(['2026-10-24', '2026-10-25', '2026-10-26'])
  })

  it('moves by months without spilling into the next one', () => {
    expect(dayKey(addMonths(new Date(2027, 0, 31), 1))).toBe('2027-02-28')
    expect(dayKey(addMonths(new Date(2026, 11, 15), 1))).toBe('2027-01-15')
    expect(dayKey(addMonths(new Date(2026, 0, 15), -1))).toBe('2025-12-15')
  })
})
