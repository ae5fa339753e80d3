/**
 * Date arithmetic for the calendar views, in the viewer's local time zone: day keys,
 * month grids, and the form's date + time inputs to and from ISO 8601 with an offset.
 */

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0')

/** The local calendar day of a moment, as `YYYY-MM-DD` (sorts like the dates it names). */
export function dayKey(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** Local midnight of a `YYYY-MM-DD` day. */
export function fromDayKey(key: string): Date {
  const [y, m, d] = key.split('-').map(Number) as [number, number, number]
  return new Date(y, m - 1, d)
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days)
}

/** The same day of another month, kept inside that month (31 January + 1 → 28/29 February). */
export function addMonths(date: Date, months: number): Date {
  const first = new Date(date.getFullYear(), date.getMonth() + months, 1)
  const last = new Date(first.getFullYear(), first.getMonth() + 1, 0).getDate()
  return new Date(first.getFullYear(), first.getMonth(), Math.min(date.getDate(), last))
}

export const startOfDay = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate())

/**
 * The weeks shown for a month: whole weeks starting on `firstDay` (1 = Monday … 7 =
 * Sunday, as Intl's week info), from the week holding the 1st to the one holding the last.
 */
export function monthWeeks(year: number, month: number, firstDay = 1): Date[][] {
  const first = new Date(year, month, 1)
  const lead = (first.getDay() - (firstDay % 7) + 7) % 7
  let day = addDays(first, -lead)
  const weeks: Date[][] = []
  while (weeks.length === 0 || day.getMonth() === month) {
    const week: Date[] = []
    for (let i = 0; i < 7; i++) {
      week.push(day)
      day = addDays(day, 1)
    }
    weeks.push(week)
  }
  return weeks
}

/** The local days an event covers, start to end (an open-ended event covers its start day). */
export function eventDayKeys(startsAt: string, endsAt?: string | null, maxDays = 62): string[] {
  const start = new Date(startsAt)
  if (Number.isNaN(start.getTime())) return []
  const end = endsAt ? new Date(endsAt) : start
  const keys = [dayKey(start)]
  // An event ending exactly at midnight does not spill onto the next day.
  const lastMoment = end.getTime() > start.getTime() ? new Date(end.getTime() - 1) : start
  const lastKey = dayKey(lastMoment)
  for (let day = addDays(start, 1); keys.length < maxDays && keys[keys.length - 1]! < lastKey; day = addDays(day, 1)) keys.push(dayKey(day))
  return keys
}

/**
 * A form's local date (`YYYY-MM-DD`) and time (`HH:MM`) as ISO 8601 with the viewer's
 * offset at that moment, e.g. `2026-11-22T19:00:00+01:00`: the wall time the organizer
 * meant stays readable, and the instant is exact.
 */
export function localDateTimeToIso(date: string, time: string): string | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date)
  const t = /^(\d{2}):(\d{2})(?::\d{2})?$/.exec(time)
  if (!d || !t) return null
  const local = new Date(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2]))
  if (Number.isNaN(local.getTime())) return null
  return isoWithOffset(local)
}

/** A moment as ISO 8601 in the viewer's local time with its offset (seconds, no fraction). */
export function isoWithOffset(local: Date): string {
  const offset = -local.getTimezoneOffset()
  const sign = offset >= 0 ? '+' : '-'
  return (
    `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}` +
    `T${pad(local.getHours())}:${pad(local.getMinutes())}:${pad(local.getSeconds())}` +
    `${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`
  )
}

/** The inputs' values for a stored moment, in the viewer's local time. */
export function isoToLocalInputs(iso: string): { date: string; time: string } {
  const at = new Date(iso)
  if (Number.isNaN(at.getTime())) return { date: '', time: '' }
  return { date: dayKey(at), time: `${pad(at.getHours())}:${pad(at.getMinutes())}` }
}
