/**
 * Weekly and monthly series (issue 36): the part of RFC 5545's RRULE (3.3.10) Convene
 * writes and reads back. A series is written as one ordinary calendar event per
 * occurrence, each naming its series (`SeriesLink`), so other apps read plain events
 * and nothing here is needed to show one.
 *
 * Written here rather than taken from the `rrule` package: a series must keep the
 * organizer's wall clock across a summer-time change (19:00 stays 19:00), which `rrule`
 * gives only through its "UTC dates that mean local times" convention and a zone
 * library; the four shapes below are plain calendar arithmetic on dates without a zone.
 */

export const MAX_OCCURRENCES = 52
export const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const
export type Weekday = (typeof WEEKDAYS)[number]

/** A rule Convene writes: a COUNT always (a series has an end), weekly or monthly. */
export interface Rule {
  freq: 'WEEKLY' | 'MONTHLY'
  /** Every `interval` weeks or months (1 to 12). */
  interval: number
  /** How many occurrences, the first included (1 to MAX_OCCURRENCES). */
  count: number
  /** MONTHLY: the same day of each month (months without it are skipped, as RFC 5545 says). */
  byMonthDay?: number
  /** MONTHLY: the nth weekday of each month (1 to 4), or the last one (-1). */
  byDay?: { nth: number; weekday: Weekday }
}

/** How an occurrence names its series, on its record (lexicons/example/groups/defs.json#eventSeries). */
export interface SeriesLink {
  /** The series' own id: every occurrence of one series has the same. */
  id: string
  /** The rule, as RRULE's value (`FREQ=WEEKLY;COUNT=8`). */
  rrule: string
  /** The IANA time zone the rule counts in (its wall clock). */
  tzid: string
  /** The first occurrence's start as the rule made it (DTSTART). */
  dtstart: string
  /** This occurrence's start as the rule made it (RECURRENCE-ID): a moved one keeps it. */
  recurrenceId: string
}

export const SERIES_ID = /^[a-z0-9]{8,32}$/

/** Whether the platform knows an IANA zone by this name. */
export function knownZone(tzid: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tzid })
    return true
  } catch {
    return false
  }
}

/** A reading of a record's `series` (another app's too): the link, or null when it is not one Convene can follow. */
export function seriesLinkOf(raw: unknown): SeriesLink | null {
  if (!raw || typeof raw !== 'object') return null
  const s = raw as Record<string, unknown>
  const text = (k: string) => (typeof s[k] === 'string' ? (s[k] as string) : null)
  const [id, rrule, tzid, dtstart, recurrenceId] = ['id', 'rrule', 'tzid', 'dtstart', 'recurrenceId'].map(text)
  if (!id || !SERIES_ID.test(id) || !rrule || !parseRRule(rrule) || !tzid || tzid.length > 64 || !knownZone(tzid)) return null
  if (!dtstart || !recurrenceId || Number.isNaN(Date.parse(dtstart)) || Number.isNaN(Date.parse(recurrenceId))) return null
  return { id, rrule, tzid, dtstart, recurrenceId }
}

export function formatRRule(rule: Rule): string {
  const parts = [`FREQ=${rule.freq}`]
  if (rule.interval !== 1) parts.push(`INTERVAL=${rule.interval}`)
  if (rule.byMonthDay) parts.push(`BYMONTHDAY=${rule.byMonthDay}`)
  if (rule.byDay) parts.push(`BYDAY=${rule.byDay.nth}${rule.byDay.weekday}`)
  parts.push(`COUNT=${rule.count}`)
  return parts.join(';')
}

const whole = (s: string | undefined, min: number, max: number) => (s !== undefined && /^-?\d{1,3}$/.test(s) && Number(s) >= min && Number(s) <= max ? Number(s) : null)

/** The rule, or null for anything outside the shapes above (another app's rule is then not expanded, only shown as its events). */
export function parseRRule(text: unknown): Rule | null {
  if (typeof text !== 'string' || text.length > 200) return null
  const fields = new Map<string, string>()
  for (const part of text.split(';')) {
    const [key, value, extra] = part.split('=')
    if (!key || value === undefined || extra !== undefined || fields.has(key)) return null
    fields.set(key.toUpperCase(), value.toUpperCase())
  }
  const freq = fields.get('FREQ')
  const interval = fields.has('INTERVAL') ? whole(fields.get('INTERVAL'), 1, 12) : 1
  const count = whole(fields.get('COUNT'), 1, MAX_OCCURRENCES)
  if ((freq !== 'WEEKLY' && freq !== 'MONTHLY') || interval === null || count === null) return null
  if ([...fields.keys()].some((k) => !['FREQ', 'INTERVAL', 'COUNT', 'BYMONTHDAY', 'BYDAY'].includes(k))) return null
  const rule: Rule = { freq, interval, count }
  if (freq === 'WEEKLY') return fields.has('BYMONTHDAY') || fields.has('BYDAY') ? null : rule
  if (fields.has('BYMONTHDAY') === fields.has('BYDAY')) return null
  if (fields.has('BYMONTHDAY')) {
    const day = whole(fields.get('BYMONTHDAY'), 1, 31)
    return day === null ? null : { ...rule, byMonthDay: day }
  }
  const m = /^(-1|[1-4])(SU|MO|TU|WE|TH|FR|SA)$/.exec(fields.get('BYDAY')!)
  return m ? { ...rule, byDay: { nth: Number(m[1]), weekday: m[2] as Weekday } } : null
}

/** A date without a zone or a time. */
export interface CivilDate {
  y: number
  /** 1 to 12. */
  m: number
  d: number
}

const civil = (t: Date): CivilDate => ({ y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() })
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate()
const weekdayOf = (c: CivilDate) => new Date(Date.UTC(c.y, c.m - 1, c.d)).getUTCDay()

/** The nth (or last, -1) `weekday` of a month, or null when the month has no such day. */
function nthWeekday(y: number, m: number, nth: number, weekday: Weekday): number | null {
  const want = WEEKDAYS.indexOf(weekday)
  if (nth === -1) {
    const last = daysIn(y, m)
    return last - ((weekdayOf({ y, m, d: last }) - want + 7) % 7)
  }
  const first = 1 + ((want - weekdayOf({ y, m, d: 1 }) + 7) % 7)
  const day = first + (nth - 1) * 7
  return day <= daysIn(y, m) ? day : null
}

/** The dates a rule gives from its first date (which counts as the first), `count` of them. */
export function ruleDates(rule: Rule, first: CivilDate): CivilDate[] {
  const dates: CivilDate[] = []
  if (rule.freq === 'WEEKLY') {
    for (let i = 0; i < rule.count; i++) dates.push(civil(new Date(Date.UTC(first.y, first.m - 1, first.d + 7 * rule.interval * i))))
    return dates
  }
  // Monthly: a month without the day (the 31st, a fifth Tuesday) is skipped, not moved; bounded so a rule that rarely matches ends.
  for (let k = 0; dates.length < rule.count && k < rule.count * 12; k++) {
    const month = new Date(Date.UTC(first.y, first.m - 1 + k * rule.interval, 1))
    const y = month.getUTCFullYear()
    const m = month.getUTCMonth() + 1
    const d = rule.byDay ? nthWeekday(y, m, rule.byDay.nth, rule.byDay.weekday) : (rule.byMonthDay ?? first.d) <= daysIn(y, m) ? (rule.byMonthDay ?? first.d) : null
    if (d !== null && (k > 0 || d >= first.d)) dates.push({ y, m, d })
  }
  return dates
}

/** The starts of a series whose first occurrence starts at `first`, in this computer's time zone: the wall clock is kept. */
export function localStarts(rule: Rule, first: Date): Date[] {
  return ruleDates(rule, { y: first.getFullYear(), m: first.getMonth() + 1, d: first.getDate() }).map(
    (c) => new Date(c.y, c.m - 1, c.d, first.getHours(), first.getMinutes(), first.getSeconds()),
  )
}

/** What the New event dialog offers, for an event starting at `first` (local). */
export type RepeatChoice = 'weekly' | 'fortnightly' | 'monthly-day' | 'monthly-weekday'

export function ruleFor(choice: RepeatChoice, first: Date, count: number): Rule {
  switch (choice) {
    case 'weekly':
      return { freq: 'WEEKLY', interval: 1, count }
    case 'fortnightly':
      return { freq: 'WEEKLY', interval: 2, count }
    case 'monthly-day':
      return { freq: 'MONTHLY', interval: 1, count, byMonthDay: first.getDate() }
    case 'monthly-weekday':
      return { freq: 'MONTHLY', interval: 1, count, byDay: { nth: nthOfMonth(first), weekday: WEEKDAYS[first.getDay()]! } }
  }
}

/** Which of its month's weekdays a day is: 1 to 4, or -1 for the last (a fifth is always the last). */
export function nthOfMonth(day: Date): number {
  const nth = Math.ceil(day.getDate() / 7)
  return nth === 5 ? -1 : nth
}

const ORDINAL = ['', 'first', 'second', 'third', 'fourth']
const WEEKDAY_NAMES: Record<Weekday, string> = { SU: 'Sunday', MO: 'Monday', TU: 'Tuesday', WE: 'Wednesday', TH: 'Thursday', FR: 'Friday', SA: 'Saturday' }

/** A rule in words: "Every week", "Every 2 weeks", "Every month on the 14th", "Every month on the last Friday". */
export function ruleInWords(rule: Rule): string {
  if (rule.freq === 'WEEKLY') return rule.interval === 1 ? 'Every week' : `Every ${rule.interval} weeks`
  const every = rule.interval === 1 ? 'Every month' : `Every ${rule.interval} months`
  if (rule.byDay) return `${every} on the ${rule.byDay.nth === -1 ? 'last' : ORDINAL[rule.byDay.nth]} ${WEEKDAY_NAMES[rule.byDay.weekday]}`
  return `${every} on day ${rule.byMonthDay}`
}

/** A wall-clock reading of an instant in a zone, as iCalendar's local DATE-TIME (`20261207T190000`). */
export function wallClock(iso: string | Date, tzid: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: tzid, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(typeof iso === 'string' ? new Date(iso) : iso)
      .map((p) => [p.type, p.value]),
  )
  return `${parts.year}${parts.month}${parts.day}T${parts.hour}${parts.minute}${parts.second}`
}

/** The date part of a wall-clock reading, as a CivilDate. */
export function civilOf(wall: string): CivilDate {
  return { y: Number(wall.slice(0, 4)), m: Number(wall.slice(4, 6)), d: Number(wall.slice(6, 8)) }
}
