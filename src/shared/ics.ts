/**
 * iCalendar (RFC 5545) export of a group's calendar: pure, so the renderer builds the
 * file itself and both shells download it the same way.
 */

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

/** The whole VCALENDAR, lines joined with CRLF and ending with one. */
export function toIcs(events: readonly IcsEvent[], options: IcsOptions = {}): string {
  const stamp = utcDateTime(options.now ?? new Date())
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:${ICS_PRODID}`, 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH']
  if (options.calendarName) lines.push(`X-WR-CALNAME:${escapeText(options.calendarName)}`)
  for (const e of events) {
    lines.push('BEGIN:VEVENT', `UID:${escapeText(e.uid)}`, `DTSTAMP:${stamp}`, `DTSTART:${utcDateTime(e.startsAt)}`)
    if (e.endsAt) lines.push(`DTEND:${utcDateTime(e.endsAt)}`)
    if (e.createdAt) lines.push(`CREATED:${utcDateTime(e.createdAt)}`)
    lines.push(`SUMMARY:${escapeText(e.name)}`)
    if (e.description) lines.push(`DESCRIPTION:${escapeText(e.description)}`)
    if (e.location) lines.push(`LOCATION:${escapeText(e.location)}`)
    if (e.status && ICS_STATUS[e.status]) lines.push(`STATUS:${ICS_STATUS[e.status]}`)
    // URI value, not TEXT: not escaped (RFC 5545 3.8.4.6).
    if (e.url && /^\S+$/.test(e.url)) lines.push(`URL:${e.url}`)
    lines.push('END:VEVENT')
  }
  lines.push('END:VCALENDAR')
  return lines.map(foldLine).join(CRLF) + CRLF
}
