/**
 * A VTIMEZONE (RFC 5545 3.6.5) for an IANA zone, read from the platform's own zone data
 * (Intl), for the years a file covers: a series' DTSTART, RRULE, EXDATE and
 * RECURRENCE-ID are wall-clock times in the organizer's zone, and RFC 5545 asks for the
 * zone's definition beside every TZID used. Each change of offset in those years is one
 * STANDARD or DAYLIGHT observance (no RRULE of its own), so the file says only what the
 * zone did and will do, as far as this computer knows.
 */

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

const formatters = new Map<string, Intl.DateTimeFormat>()
function offsetFormatter(tzid: string) {
  let f = formatters.get(tzid)
  if (!f) formatters.set(tzid, (f = new Intl.DateTimeFormat('en-US', { timeZone: tzid, timeZoneName: 'longOffset' })))
  return f
}

/** The zone's offset from UTC at an instant, in minutes (east positive). */
export function offsetAt(tzid: string, at: number): number {
  const name = offsetFormatter(tzid).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT'
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name)
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0
}

const pad = (n: number) => String(n).padStart(2, '0')
/** An offset as iCalendar's UTC-OFFSET (`+0100`). */
const utcOffset = (minutes: number) => `${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60))}${pad(Math.abs(minutes) % 60)}`
/** An instant as local DATE-TIME at a given offset. */
function localAt(at: number, offset: number): string {
  const d = new Date(at + offset * MINUTE)
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`
}

/** The instants in [from, to) where the zone's offset changes, found day by day and then to the minute. */
function transitions(tzid: string, from: number, to: number): { at: number; before: number; after: number }[] {
  const found = []
  let before = offsetAt(tzid, from)
  for (let day = from + DAY; day <= to; day += DAY) {
    const after = offsetAt(tzid, day)
    if (after === before) continue
    let lo = day - DAY
    let hi = day
    while (hi - lo > MINUTE) {
      const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE
      if (offsetAt(tzid, mid) === before) lo = mid
      else hi = mid
    }
    found.push({ at: hi, before, after })
    before = after
  }
  return found
}

/** The VTIMEZONE lines for `tzid` over the years `fromYear` to `toYear`, both whole. */
export function vtimezone(tzid: string, fromYear: number, toYear: number): string[] {
  const from = Date.UTC(fromYear, 0, 1)
  const to = Date.UTC(toYear + 1, 0, 1)
  const changes = transitions(tzid, from, to)
  const lines = ['BEGIN:VTIMEZONE', `TZID:${tzid}`]
  // The offset the years start in, then each change: RFC 5545 leaves a time before the first observance undefined.
  const start = offsetAt(tzid, from)
  const observances = [{ at: from, before: start, after: start }, ...changes]
  for (const c of observances) {
    // The larger offset of a pair the zone goes back and forth between is summer time.
    const summer = changes.some((o) => o.after === c.after && o.before < o.after) && changes.some((o) => o.before === c.after && o.after < o.before)
    const kind = summer ? 'DAYLIGHT' : 'STANDARD'
    lines.push(`BEGIN:${kind}`, `DTSTART:${localAt(c.at, c.before)}`, `TZOFFSETFROM:${utcOffset(c.before)}`, `TZOFFSETTO:${utcOffset(c.after)}`, `END:${kind}`)
  }
  lines.push('END:VTIMEZONE')
  return lines
}
