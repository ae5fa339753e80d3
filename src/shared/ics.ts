/**
 * iCalendar (RFC 5545) export of a group's calendar: pure, so the renderer builds the
 * file itself and both shells download it the same way.
 */
import { vtimezone } from './ics-timezone.js'
import { civilOf, parseRRule, ruleDates, wallClock, type SeriesLink } from './recurrence.js'

export interface IcsEvent {
  /** A globally unique, stable identifier: the event's record address. */
  uid: string
  name: string
  startsAt: string
  endsAt?: string | null
  description?: string | null
  location?: string | null
  /** community.lexicon.calendar.event's status, without the `…event#`. */
  status?: string | null
  /** The event's first link (VEVENT has one URL). */
  url?: string | null
  createdAt?: string | null
  /** The series it is an occurrence of, and the series' own UID: the file then carries the rule once. */
  series?: (SeriesLink & { uid: string }) | null
}

/**
 * VEVENT's STATUS (RFC 5545 3.8.1.11) for the lexicon's: cancelled is CANCELLED; planned
 * and postponed (no firm date) are TENTATIVE; scheduled and rescheduled are CONFIRMED.
 */
const ICS_STATUS: Record<string, string> = { cancelled: 'CANCELLED', planned: 'TENTATIVE', postponed: 'TENTATIVE', scheduled: 'CONFIRMED', rescheduled: 'CONFIRMED' }

export interface IcsOptions {
  /** Shown by calendar apps as the calendar's name (X-WR-CALNAME). */
  calendarName?: string
  /** When the file was made (DTSTAMP); now by default. */
  now?: Date
}

export const ICS_PRODID = '-//Convene//Group calendar//EN'
export const ICS_MIME_TYPE = 'text/calendar;charset=utf-8'

const CRLF = '\r\n'

/** TEXT values (RFC 5545 3.3.11): backslash, semicolon and comma escaped, newlines as \n. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')
}

/** UTC DATE-TIME form (RFC 5545 3.3.5, form #2), e.g. 20261122T180000Z. */
export function utcDateTime(iso: string | Date): string {
  const date = typeof iso === 'string' ? new Date(iso) : iso
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a date and time: ${String(iso)}`)
  return date.toISOString().replace(/\.\d{3}/, '').replace(/[-:]/g, '')
}

/** UTF-8 length of a string (iterated by code point, so surrogate pairs count once as 4). */
function octets(s: string): number {
  let n = 0
  for (const char of s) {
    const cp = char.codePointAt(0)!
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4
  }
  return n
}

/**
 * Folds a content line so no line is longer than 75 octets (RFC 5545 3.1): each
 * continuation starts with one space, which counts towards its 75. A multi-octet
 * UTF-8 character is never split.
 */
export function foldLine(line: string): string {
  if (octets(line) <= 75) return line
  const parts: string[] = []
  let current = ''
  let size = 0
  let limit = 75
  for (const char of line) {
    const n = octets(char)
    if (size + n > limit) {
      parts.push(current)
      current = ''
      size = 0
      limit = 74 // the leading space takes one octet
    }
    current += char
    size += n
  }
  parts.push(current)
  return parts.join(`${CRLF} `)
}

/** One VEVENT's lines after its UID and DTSTAMP: its times (`start`: DTSTART and what follows) and what it says. */
function eventBody(e: IcsEvent, start: string[]): string[] {
  const lines = [...start]
  if (e.createdAt) lines.push(`CREATED:${utcDateTime(e.createdAt)}`)
  lines.push(`SUMMARY:${escapeText(e.name)}`)
  if (e.description) lines.push(`DESCRIPTION:${escapeText(e.description)}`)
  if (e.location) lines.push(`LOCATION:${escapeText(e.location)}`)
  if (e.status && ICS_STATUS[e.status]) lines.push(`STATUS:${ICS_STATUS[e.status]}`)
  // URI value, not TEXT: not escaped (RFC 5545 3.8.4.6).
  if (e.url && /^\S+$/.test(e.url)) lines.push(`URL:${e.url}`)
  return lines
}

const instantTimes = (e: IcsEvent) => [`DTSTART:${utcDateTime(e.startsAt)}`, ...(e.endsAt ? [`DTEND:${utcDateTime(e.endsAt)}`] : [])]
const durationOf = (e: IcsEvent) => (e.endsAt ? Date.parse(e.endsAt) - Date.parse(e.startsAt) : null)
const SAID = ['name', 'description', 'location', 'status', 'url'] as const

/**
 * A series as RFC 5545 writes one: a master VEVENT with DTSTART in the series' zone, its
 * RRULE, and EXDATE for the dates whose occurrence is gone; then, under the same UID, one
 * VEVENT per occurrence that differs from what the rule makes (moved, retimed, renamed,
 * cancelled), named by its RECURRENCE-ID. The master says what the first occurrence
 * says. Answers null when the rule is not one Convene reads: the occurrences are then
 * written as plain events.
 */
function seriesEvents(occurrences: IcsEvent[], stamp: string): { lines: string[]; tzid: string; years: number[] } | null {
  const link = occurrences[0]!.series!
  const rule = parseRRule(link.rrule)
  if (!rule || Number.isNaN(Date.parse(link.dtstart))) return null
  const { tzid } = link
  const template = occurrences.find((o) => o.series!.recurrenceId === link.dtstart) ?? occurrences[0]!
  const duration = durationOf(template)
  const firstWall = wallClock(link.dtstart, tzid)
  const time = firstWall.slice(8)
  const ruleWalls = ruleDates(rule, civilOf(firstWall)).map((c) => `${c.y}${String(c.m).padStart(2, '0')}${String(c.d).padStart(2, '0')}${time}`)
  const present = new Set(occurrences.map((o) => wallClock(o.series!.recurrenceId, tzid)))
  const gone = ruleWalls.filter((w) => !present.has(w))
  const lines = [
    'BEGIN:VEVENT',
    `UID:${escapeText(link.uid)}`,
    `DTSTAMP:${stamp}`,
    ...eventBody(template, [
      `DTSTART;TZID=${tzid}:${firstWall}`,
      ...(duration !== null ? [`DTEND;TZID=${tzid}:${wallClock(new Date(Date.parse(link.dtstart) + duration), tzid)}`] : []),
      `RRULE:${link.rrule}`,
      ...(gone.length ? [`EXDATE;TZID=${tzid}:${gone.join(',')}`] : []),
    ]),
    'END:VEVENT',
  ]
  for (const o of occurrences) {
    const moved = Date.parse(o.startsAt) !== Date.parse(o.series!.recurrenceId) || durationOf(o) !== duration
    if (!moved && SAID.every((k) => (o[k] ?? null) === (template[k] ?? null))) continue
    lines.push('BEGIN:VEVENT', `UID:${escapeText(link.uid)}`, `DTSTAMP:${stamp}`, `RECURRENCE-ID;TZID=${tzid}:${wallClock(o.series!.recurrenceId, tzid)}`, ...eventBody(o, instantTimes(o)), 'END:VEVENT')
  }
  const years = [...ruleWalls, ...occurrences.map((o) => wallClock(o.startsAt, tzid))].map((w) => Number(w.slice(0, 4)))
  return { lines, tzid, years }
}

/** The whole VCALENDAR, lines joined with CRLF and ending with one. */
export function toIcs(events: readonly IcsEvent[], options: IcsOptions = {}): string {
  const stamp = utcDateTime(options.now ?? new Date())
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:${ICS_PRODID}`, 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH']
  if (options.calendarName) lines.push(`X-WR-CALNAME:${escapeText(options.calendarName)}`)
  const series = new Map<string, IcsEvent[]>()
  const single: IcsEvent[] = []
  for (const e of events) {
    if (e.series) series.set(e.series.uid, [...(series.get(e.series.uid) ?? []), e])
    else single.push(e)
  }
  const zones = new Map<string, number[]>()
  const written: string[] = []
  for (const occurrences of series.values()) {
    occurrences.sort((a, b) => Date.parse(a.series!.recurrenceId) - Date.parse(b.series!.recurrenceId))
    const made = seriesEvents(occurrences, stamp)
    if (!made) {
      single.push(...occurrences)
      continue
    }
    written.push(...made.lines)
    zones.set(made.tzid, [...(zones.get(made.tzid) ?? []), ...made.years])
  }
  for (const [tzid, years] of zones) lines.push(...vtimezone(tzid, Math.min(...years), Math.max(...years)))
  lines.push(...written)
  for (const e of single) lines.push('BEGIN:VEVENT', `UID:${escapeText(e.uid)}`, `DTSTAMP:${stamp}`, ...eventBody(e, instantTimes(e)), 'END:VEVENT')
  lines.push('END:VCALENDAR')
  return lines.map(foldLine).join(CRLF) + CRLF
}
