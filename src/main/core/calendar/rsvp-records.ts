import { parseRecordAddress } from '../../../shared/space-address.js'
import { EVENT_COLLECTION, rsvpStatus } from './event-record.js'
import { RSVP_STATUSES } from '../../../shared/ipc/views.js'

export type RsvpStatus = (typeof RSVP_STATUSES)[number]

/** One RSVP record as a list answer carries it (from the host, or the member's own PDS). */
export interface ListedRsvp {
  uri: string
  value: unknown
}

/**
 * The event an RSVP answers, by rkey: its subject's when it names a calendar event
 * (`at://<group>/community.lexicon.calendar.event/<rkey>`, or a space record address
 * ending the same way), else the RSVP's own rkey, which the spec makes the event's.
 * Another app may give its RSVP a fresh TID, so the subject goes first.
 */
export function answeredEvent(r: ListedRsvp): string | undefined {
  const subject = (r.value as { subject?: unknown } | null)?.subject
  const uri = typeof subject === 'string' ? subject : typeof (subject as { uri?: unknown } | null)?.uri === 'string' ? (subject as { uri: string }).uri : undefined
  const parts = uri?.split('/') ?? []
  if (parts.length >= 2 && parts[parts.length - 2] === EVENT_COLLECTION && parts[parts.length - 1]) return parts[parts.length - 1]
  return parseRecordAddress(r.uri)?.rkey ?? r.uri.split('/').pop()
}

/** A record's answer as a short status, or null when it is not one of the lexicon's (it is then left out, not guessed at). */
export const answerOf = (r: ListedRsvp) => rsvpStatus((r.value as { status?: unknown } | null)?.status)

/**
 * Answers from the collection Convene wrote before and the published one, for one person
 * or many (`who` tells whose a record is): per person and event, the published
 * collection's answer wins, whatever the order they were read in.
 */
export function mergeAnswers<T extends ListedRsvp>(legacy: T[], current: T[], who: (r: T) => string): Map<string, { event: string; status: RsvpStatus; record: T }> {
  const out = new Map<string, { event: string; status: RsvpStatus; record: T }>()
  for (const r of [...legacy, ...current]) {
    const event = answeredEvent(r)
    const status = answerOf(r)
    if (!event || !status) continue
    out.set(`${who(r)} ${event}`, { event, status, record: r })
  }
  return out
}
