import { describe, expect, it } from 'vitest'
import { escapeText, foldLine, ICS_PRODID, toIcs, utcDateTime } from '../../src/shared/ics.js'

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8')
/** RFC 5545 3.1 unfolding: a CRLF followed by one space or tab is removed. */
const unfold = (ics: string) => ics.replace(/\r\n[ \t]/g, '')

const picnic = {
  uid: 'at://did:plc:group/space/community.lexicon.calendar/self/did:plc:group/community.lexicon.calendar.event/3lxyz',
  name: 'Picnic; bring food, drinks',
  startsAt: '2026-11-22T19:00:00+01:00',
  endsAt: '2026-11-22T21:30:00+01:00',
  description: 'Line one\nLine two with a back\\slash',
  location: 'The park, north gate',
}

describe('iCalendar export (RFC 5545)', () => {
  it('writes a VCALENDAR with PRODID and VERSION, and one VEVENT per event', () => {
    const ics = toIcs([picnic, { uid: 'u2', name: 'Second', startsAt: '2026-12-01T09:00:00Z' }], { now: new Date('2026-11-01T12:00:00Z') })
    const lines = unfold(ics).split('\r\n')
    expect(lines[0]).toBe('BEGIN:VCALENDAR')
    expect(lines).toContain('VERSION:2.0')
    expect(lines).toContain(`PRODID:${ICS_PRODID}`)
    expect(lines.at(-2)).toBe('END:VCALENDAR')
    expect(lines.at(-1)).toBe('') // the file ends with CRLF
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(2)
    expect(lines.filter((l) => l === 'END:VEVENT')).toHaveLength(2)
    expect(lines).toContain(`UID:${picnic.uid}`)
    expect(lines.filter((l) => l === 'DTSTAMP:20261101T120000Z')).toHaveLength(2)
  })

  it('gives start and end in UTC, and no DTEND when the end is unknown', () => {
    const lines = unfold(toIcs([picnic, { uid: 'u2', name: 'Open ended', startsAt: '2026-12-01T09:00:00-05:00', endsAt: null }])).split('\r\n')
    expect(lines).toContain('DTSTART:20261122T180000Z')
    expect(lines).toContain('DTEND:20261122T203000Z')
    const second = lines.slice(lines.indexOf('UID:u2'))
    expect(second).toContain('DTSTART:20261201T140000Z')
    expect(second.slice(0, second.indexOf('END:VEVENT')).some((l) => l.startsWith('DTEND'))).toBe(false)
    expect(second.slice(0, second.indexOf('END:VEVENT')).some((l) => l.startsWith('DESCRIPTION') || l.startsWith('LOCATION'))).toBe(false)
  })

  it('says a cancelled event is cancelled (STATUS), a postponed one tentative, and gives its first link', () => {
    const lines = unfold(toIcs([{ ...picnic, status: 'cancelled', url: 'https://tickets.example/1' }, { uid: 'u2', name: 'Later', startsAt: '2026-12-01T09:00:00Z', status: 'postponed' }])).split('\r\n')
    expect(lines).toContain('STATUS:CANCELLED')
    expect(lines).toContain('STATUS:TENTATIVE')
    expect(lines).toContain('URL:https://tickets.example/1')
    expect(unfold(toIcs([picnic]))).not.toContain('STATUS:')
  })

  it('escapes backslashes, semicolons, commas and newlines in text', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf')
    const lines = unfold(toIcs([picnic])).split('\r\n')
    expect(lines).toContain('SUMMARY:Picnic\\; bring food\\, drinks')
    expect(lines).toContain('DESCRIPTION:Line one\\nLine two with a back\\\\slash')
    expect(lines).toContain('LOCATION:The park\\, north gate')
    // No bare newline survives inside a value: every line break is a CRLF.
    expect(toIcs([picnic]).replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
  })

  it('folds lines at 75 octets without splitting a character, and unfolds back', () => {
    const long = `${'Évènement à Zürich 🎉 '.repeat(12)}end`
    const folded = foldLine(`SUMMARY:${escapeText(long)}`)
    const physical = folded.split('\r\n')
    expect(physical.length).toBeGreaterThan(1)
    for (const [i, line] of physical.entries()) {
      expect(utf8(line)).toBeLessThanOrEqual(75)
      if (i > 0) expect(line.startsWith(' ')).toBe(true)
      expect(line).not.toContain('\uFFFD')
    }
    expect(unfold(folded)).toBe(`SUMMARY:${long}`)
    const ics = toIcs([{ ...picnic, description: long, location: 'x'.repeat(200) }], { calendarName: 'Book club' })
    for (const line of ics.split('\r\n')) expect(utf8(line)).toBeLessThanOrEqual(75)
    expect(unfold(ics)).toContain(`DESCRIPTION:${long}`)
    expect(unfold(ics)).toContain('X-WR-CALNAME:Book club')
  })

  it('leaves short lines alone and formats dates exactly', () => {
    expect(foldLine('SUMMARY:short')).toBe('SUMMARY:short')
    expect(foldLine('x'.repeat(75))).toBe('x'.repeat(75))
    expect(foldLine('x'.repeat(76))).toBe(`${'x'.repeat(75)}\r\n x`)
    expect(utcDateTime('2026-11-22T18:00:00.123Z')).toBe('20261122T180000Z')
    expect(() => utcDateTime('not a date')).toThrow(RangeError)
  })
})
