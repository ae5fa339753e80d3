import { afterAll, describe, expect, it } from 'vitest'
import { formatRRule, localStarts, parseRRule, ruleDates, ruleFor, ruleInWords, wallClock } from '../../src/shared/recurrence.js'
import { toIcs, type IcsEvent } from '../../src/shared/ics.js'
import { isoWithOffset } from '../../src/shared/calendar-dates.js'

/** An organizer in Berlin: summer time ends on 25 October 2026 and starts on 28 March 2027. */
const tz = process.env.TZ
process.env.TZ = 'Europe/Berlin'
afterAll(() => {
  process.env.TZ = tz
})

const unfold = (ics: string) => ics.replace(/\r\n[ \t]/g, '').split('\r\n')
const dates = (list: { y: number; m: number; d: number }[]) => list.map((c) => `${c.y}-${c.m}-${c.d}`)

describe('series rules (RFC 5545 RRULE, the shapes Convene writes)', () => {
  it('keeps the wall clock across a summer-time change: 19:00 stays 19:00', () => {
    const starts = localStarts({ freq: 'WEEKLY', interval: 1, count: 3 }, new Date(2026, 9, 18, 19, 0))
    expect(starts.map((d) => isoWithOffset(d))).toEqual(['2026-10-18T19:00:00+02:00', '2026-10-25T19:00:00+01:00', '2026-11-01T19:00:00+01:00'])
  })

  it('skips months without the day, and finds the nth or last weekday', () => {
    expect(dates(ruleDates({ freq: 'MONTHLY', interval: 1, count: 4, byMonthDay: 31 }, { y: 2027, m: 1, d: 31 }))).toEqual(['2027-1-31', '2027-3-31', '2027-5-31', '2027-7-31'])
    expect(dates(ruleDates({ freq: 'MONTHLY', interval: 1, count: 3, byDay: { nth: 2, weekday: 'TU' } }, { y: 2026, m: 12, d: 8 }))).toEqual(['2026-12-8', '2027-1-12', '2027-2-9'])
    expect(dates(ruleDates({ freq: 'MONTHLY', interval: 1, count: 3, byDay: { nth: -1, weekday: 'FR' } }, { y: 2026, m: 12, d: 25 }))).toEqual(['2026-12-25', '2027-1-29', '2027-2-26'])
    expect(dates(ruleDates({ freq: 'WEEKLY', interval: 2, count: 3 }, { y: 2026, m: 12, d: 28 }))).toEqual(['2026-12-28', '2027-1-11', '2027-1-25'])
  })

  it('offers each dialog choice as a rule that reads back the same, in words', () => {
    const first = new Date(2026, 11, 29, 18, 30) // the fifth Tuesday of December
    const cases = [
      ['weekly', 'FREQ=WEEKLY;COUNT=8', 'Every week'],
      ['fortnightly', 'FREQ=WEEKLY;INTERVAL=2;COUNT=8', 'Every 2 weeks'],
      ['monthly-day', 'FREQ=MONTHLY;BYMONTHDAY=29;COUNT=8', 'Every month on day 29'],
      ['monthly-weekday', 'FREQ=MONTHLY;BYDAY=-1TU;COUNT=8', 'Every month on the last Tuesday'],
    ] as const
    for (const [choice, text, words] of cases) {
      const rule = ruleFor(choice, first, 8)
      expect(formatRRule(rule)).toBe(text)
      expect(parseRRule(text)).toEqual(rule)
      expect(ruleInWords(rule)).toBe(words)
    }
  })

  it('reads no rule it would not write: no end, too many, unknown parts, both kinds of day', () => {
    for (const text of ['FREQ=WEEKLY', 'FREQ=WEEKLY;COUNT=53', 'FREQ=DAILY;COUNT=3', 'FREQ=WEEKLY;COUNT=3;BYSETPOS=1', 'FREQ=MONTHLY;COUNT=3', 'FREQ=MONTHLY;COUNT=3;BYDAY=2TU;BYMONTHDAY=3', 'FREQ=MONTHLY;COUNT=3;BYDAY=5TU', 'FREQ=WEEKLY;COUNT=3;COUNT=4', 42])
      expect(parseRRule(text), String(text)).toBeNull()
  })
})

describe('a series in the .ics file', () => {
  const uid = 'at://did:plc:g/space/community.lexicon.calendar/self#series-abcdefgh'
  const starts = localStarts({ freq: 'WEEKLY', interval: 1, count: 4 }, new Date(2026, 9, 18, 19, 0)).map((d) => isoWithOffset(d))
  const link = { id: 'abcdefgh', uid, rrule: 'FREQ=WEEKLY;COUNT=4', tzid: 'Europe/Berlin', dtstart: starts[0]! }
  const occurrence = (i: number, over: Partial<IcsEvent> = {}): IcsEvent => ({
    uid: `at://did:plc:g/e${i}`,
    name: 'Board games',
    startsAt: starts[i]!,
    endsAt: new Date(Date.parse(starts[i]!) + 2 * 3600_000).toISOString(),
    series: { ...link, recurrenceId: starts[i]! },
    ...over,
  })

  it('carries the rule once in the organizer’s zone, a skipped date as EXDATE, a moved one by its RECURRENCE-ID', () => {
    const moved = new Date(Date.parse(starts[2]!) + 24 * 3600_000).toISOString()
    const lines = unfold(toIcs([occurrence(0), occurrence(2, { startsAt: moved, endsAt: new Date(Date.parse(moved) + 2 * 3600_000).toISOString() }), occurrence(3)], { now: new Date('2026-10-01T00:00:00Z') }))
    const vevents = lines.filter((l) => l === 'BEGIN:VEVENT')
    expect(vevents).toHaveLength(2)
    expect(lines).toContain('DTSTART;TZID=Europe/Berlin:20261018T190000')
    expect(lines).toContain('DTEND;TZID=Europe/Berlin:20261018T210000')
    expect(lines).toContain('RRULE:FREQ=WEEKLY;COUNT=4')
    expect(lines).toContain('EXDATE;TZID=Europe/Berlin:20261025T190000')
    expect(lines).toContain('RECURRENCE-ID;TZID=Europe/Berlin:20261101T190000')
    expect(lines).toContain('DTSTART:20261102T180000Z')
    expect(lines.filter((l) => l === `UID:${uid.replace(/[;,]/g, '\\$&')}`)).toHaveLength(2)
    // The zone is defined beside its use, with the change of 25 October 2026 (03:00 summer time → 02:00).
    const zone = lines.slice(lines.indexOf('BEGIN:VTIMEZONE'), lines.indexOf('END:VTIMEZONE') + 1)
    expect(zone).toContain('TZID:Europe/Berlin')
    expect(zone.join('\n')).toContain('BEGIN:STANDARD\nDTSTART:20261025T030000\nTZOFFSETFROM:+0200\nTZOFFSETTO:+0100\nEND:STANDARD')
  })

  it('writes a cancelled occurrence as an exception with its status, and other events as before', () => {
    const lines = unfold(toIcs([occurrence(0), occurrence(1, { status: 'cancelled' }), occurrence(2), occurrence(3), { uid: 'u-single', name: 'Picnic', startsAt: '2026-11-22T12:00:00Z' }]))
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(3)
    expect(lines.some((l) => l.startsWith('EXDATE'))).toBe(false)
    const exception = lines.indexOf('RECURRENCE-ID;TZID=Europe/Berlin:20261025T190000')
    expect(exception).toBeGreaterThan(0)
    expect(lines.slice(exception, lines.indexOf('END:VEVENT', exception))).toContain('STATUS:CANCELLED')
    expect(lines).toContain('UID:u-single')
  })

  it('reads the wall clock of an instant in the series’ zone, wherever the computer is', () => {
    expect(wallClock('2026-07-01T17:00:00Z', 'America/New_York')).toBe('20260701T130000')
  })
})
