import type { EventItem } from '../../../shared/ipc/views'
import type { GroupAction } from '../stores/groups'
import { civilOf, formatRRule, localStarts, parseRRule, ruleDates, ruleFor, ruleInWords, wallClock, type RepeatChoice } from '../../../shared/recurrence'
import { isoWithOffset } from '../../../shared/calendar-dates'
import type { EventFields, NewEventExtras } from './calendar-format'

/**
 * Weekly and monthly series (issue 36) as the outbox sends them: one `event.create` per
 * occurrence, queued together all or none (`groups.actMany`), each an ordinary event
 * naming its series; "this and following" is one `event.update` per occurrence. So a
 * series is made and edited offline like any event, and each occurrence keeps its own
 * places, door and answers.
 */

export interface Repeat {
  choice: RepeatChoice
  /** How many occurrences, the first included. */
  count: number
}

/** A new series' id: 16 lowercase letters and digits, random. */
export function newSeriesId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (b) => (b % 36).toString(36)).join('')
}

/** The occurrences of a new series, the first at the form's start, each as long as the first, with the form's capacity and picture. */
export function seriesCreates(fields: EventFields, extras: NewEventExtras, repeat: Repeat, tzid = Intl.DateTimeFormat().resolvedOptions().timeZone, id = newSeriesId()): GroupAction[] {
  const first = new Date(fields.startsAt)
  const rule = ruleFor(repeat.choice, first, repeat.count)
  const rrule = formatRRule(rule)
  const starts = localStarts(rule, first).map((d) => isoWithOffset(d))
  const duration = fields.endsAt ? Date.parse(fields.endsAt) - first.getTime() : null
  return starts.map((startsAt) => ({
    kind: 'event.create',
    event: {
      ...fields,
      startsAt,
      ...(duration === null ? {} : { endsAt: isoWithOffset(new Date(Date.parse(startsAt) + duration)) }),
      series: { id, rrule, tzid, dtstart: starts[0]!, recurrenceId: startsAt },
    },
    ...extras,
  }))
}

/** The occurrences of `edited`'s series from it on, in order (itself first). */
export function followingOccurrences(all: readonly EventItem[], edited: EventItem): EventItem[] {
  const s = edited.series
  if (!s) return [edited]
  const from = Date.parse(s.recurrenceId)
  return all.filter((e) => e.series?.id === s.id && Date.parse(e.series.recurrenceId) >= from).sort((a, b) => Date.parse(a.series!.recurrenceId) - Date.parse(b.series!.recurrenceId))
}

const DAY = 24 * 3600_000
const localMidnight = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime()

/**
 * "This and following": the edited occurrence takes the form whole; each later one takes
 * what it says, its own date moved by as many days as the edited one moved, at the new
 * time of day and length, and keeps its own status (one cancelled stays cancelled).
 */
export function followingUpdates(all: readonly EventItem[], edited: EventItem, fields: EventFields): GroupAction[] {
  const before = new Date(edited.startsAt)
  const after = new Date(fields.startsAt)
  const dayShift = Math.round((localMidnight(after) - localMidnight(before)) / DAY)
  const duration = fields.endsAt ? Date.parse(fields.endsAt) - after.getTime() : null
  const { startsAt: _start, endsAt: _end, status: _status, ...said } = fields
  return followingOccurrences(all, edited).map((e): GroupAction => {
    if (e.rkey === edited.rkey) return { kind: 'event.update', rkey: e.rkey, event: { ...fields, ...(e.series ? { series: e.series } : {}) } }
    const day = new Date(e.startsAt)
    const start = new Date(day.getFullYear(), day.getMonth(), day.getDate() + dayShift, after.getHours(), after.getMinutes())
    return {
      kind: 'event.update',
      rkey: e.rkey,
      event: {
        ...said,
        startsAt: isoWithOffset(start),
        ...(duration === null ? {} : { endsAt: isoWithOffset(new Date(start.getTime() + duration)) }),
        ...(e.status ? { status: e.status } : {}),
        ...(e.series ? { series: e.series } : {}),
      },
    }
  })
}

/** "Every week · 3 of 8" for an occurrence of a series Convene can read; null otherwise. */
export function seriesInWords(e: EventItem): string | null {
  const rule = e.series ? parseRRule(e.series.rrule) : null
  if (!e.series || !rule) return null
  const mine = wallClock(e.series.recurrenceId, e.series.tzid).slice(0, 8)
  const index = ruleDates(rule, civilOf(wallClock(e.series.dtstart, e.series.tzid))).findIndex((c) => `${c.y}${String(c.m).padStart(2, '0')}${String(c.d).padStart(2, '0')}` === mine)
  return index < 0 ? ruleInWords(rule) : `${ruleInWords(rule)} · ${index + 1} of ${rule.count}`
}
