import type { MyComingEvent } from '../../../shared/ipc/views'

/** What one OS notification says, and what it replaces (`tag`: one per event, the latest wins). */
export interface EventNote {
  title: string
  body: string
  tag: string
  rkey: string
}

const REMIND_BEFORE_MS = 24 * 3600_000
const when = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long', hour: 'numeric', minute: '2-digit' })
const at = (iso: string) => when.format(new Date(iso))

/**
 * What a person going to an event is told as its summary moves (issue 36): a place that
 * opened for them, a cancellation, a new time. Nothing for their own changes (`pending`),
 * for an event first seen now, or for one they are only interested in getting a place.
 */
export function eventChangeNote(before: MyComingEvent | undefined, now: MyComingEvent, group: string, tagOf: (rkey: string) => string): EventNote | null {
  if (!before || now.pending || before.pending) return null
  const note = (title: string, body: string) => ({ title, body, tag: tagOf(now.rkey), rkey: now.rkey })
  if (now.status === 'cancelled' && before.status !== 'cancelled') return note(`${now.name} is cancelled`, `${group} cancelled it (${at(now.startsAt)}).`)
  if (now.status === 'cancelled') return null
  if (now.standing === 'going' && before.standing === 'waitlisted') return note(`You have a place at ${now.name}`, `A place opened and it is yours: ${at(now.startsAt)} · ${group}`)
  if (Date.parse(now.startsAt) !== Date.parse(before.startsAt)) return note(`${now.name} has moved`, `Now ${at(now.startsAt)} (was ${at(before.startsAt)}) · ${group}`)
  if (now.status === 'postponed' && before.status !== 'postponed') return note(`${now.name} is postponed`, `${group} will say the new date.`)
  return null
}

/**
 * The reminder a day before: for an event the person goes to (with a place, where places
 * are counted), still on, starting within a day, once (`reminded` keeps which, by tag).
 */
export function reminderNote(e: MyComingEvent, group: string, tagOf: (rkey: string) => string, nowMs: number): EventNote | null {
  const start = Date.parse(e.startsAt)
  if (e.myRsvp !== 'going' || e.standing === 'waitlisted' || e.status === 'cancelled' || e.status === 'postponed') return null
  if (!(start > nowMs && start - nowMs <= REMIND_BEFORE_MS)) return null
  const hours = Math.round((start - nowMs) / 3600_000)
  return { title: `${e.name} ${hours <= 1 ? 'starts within the hour' : `starts in ${hours} hours`}`, body: `${at(e.startsAt)} · ${group}`, tag: `remind ${tagOf(e.rkey)}`, rkey: e.rkey }
}
