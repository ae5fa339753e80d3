import { addDays, dayKey } from '../../../shared/calendar-dates'
import type { GroupAction } from '../stores/groups'
import type { EventItem } from '../../../shared/ipc/views'

/** What the event form gives: the fields of `event.create` and `event.update`. */
export type EventFields = Extract<GroupAction, { kind: 'event.create' }>['event']
/** What a new event is given with it: its places (absent: no limit) and its picture. */
export type NewEventExtras = Pick<Extract<GroupAction, { kind: 'event.create' }>, 'capacity' | 'image'>
export type EventStatus = NonNullable<EventFields['status']>
export type EventMode = NonNullable<EventFields['mode']>

/**
 * An event as the form would send it back unchanged: what an edit of one field (the
 * status, when cancelling or postponing) starts from. Places of the kinds the form does
 * not edit are not sent: the core keeps them on the record (calendar/event-record.ts).
 */
export function fieldsOfEvent(e: EventItem): EventFields {
  const locations = e.locations.filter((l): l is Extract<EventItem['locations'][number], { kind: 'address' | 'uri' }> => l.kind === 'address' || l.kind === 'uri')
  return {
    name: e.name,
    startsAt: e.startsAt,
    ...(e.endsAt ? { endsAt: e.endsAt } : {}),
    ...(e.description ? { description: e.description } : {}),
    ...(e.location ? { location: e.location } : {}),
    ...(e.mode ? { mode: e.mode } : {}),
    ...(e.status ? { status: e.status } : {}),
    ...(locations.length ? { locations } : {}),
    ...(e.uris.length ? { uris: e.uris } : {}),
    ...(e.series ? { series: e.series } : {}),
  }
}

/** How the calendar shows dates and times: the viewer's locale and time zone. */
const time = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' })
const dayLong = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' })
const dayShort = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' })
export const monthTitle = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric' })

export const formatTime = (iso: string) => time.format(new Date(iso))
export const formatDayLong = (date: Date) => dayLong.format(date)

/** "Today", "Tomorrow", or the full date. */
export function dayHeading(date: Date, now = new Date()): string {
  const key = dayKey(date)
  if (key === dayKey(now)) return `Today · ${dayLong.format(date)}`
  if (key === dayKey(addDays(now, 1))) return `Tomorrow · ${dayLong.format(date)}`
  return dayLong.format(date)
}

/** "19:00 – 21:30", or with the end's day when it ends on another day. */
export function formatSpan(startsAt: string, endsAt: string | null): string {
  if (!endsAt) return formatTime(startsAt)
  const sameDay = dayKey(new Date(startsAt)) === dayKey(new Date(endsAt))
  return `${formatTime(startsAt)} – ${sameDay ? '' : `${dayShort.format(new Date(endsAt))}, `}${formatTime(endsAt)}`
}

/** Short names of the weekdays from the locale's first day (1 = Monday … 7 = Sunday). */
export function weekdayNames(firstDay: number): { short: string; long: string }[] {
  const short = new Intl.DateTimeFormat(undefined, { weekday: 'short' })
  const long = new Intl.DateTimeFormat(undefined, { weekday: 'long' })
  // 2023-01-02 was a Monday.
  return Array.from({ length: 7 }, (_, i) => {
    const d = new Date(2023, 0, 2 + ((firstDay - 1 + i) % 7))
    return { short: short.format(d), long: long.format(d) }
  })
}

/** The locale's first day of the week, where the browser knows it; Monday otherwise. */
export function firstDayOfWeek(): number {
  try {
    const locale = new Intl.Locale(navigator.language) as Intl.Locale & { getWeekInfo?: () => { firstDay: number }; weekInfo?: { firstDay: number } }
    return locale.getWeekInfo?.().firstDay ?? locale.weekInfo?.firstDay ?? 1
  } catch {
    return 1
  }
}

export const RSVP_CHOICES = [
  { status: 'going', label: 'Going', phrase: 'Going to' },
  { status: 'interested', label: 'Interested', phrase: 'Interested in' },
  { status: 'notgoing', label: 'Not going', phrase: 'Not going to' },
] as const
export type RsvpStatus = (typeof RSVP_CHOICES)[number]['status']
