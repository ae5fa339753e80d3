/**
 * What the host and the app both need to agree on about an event's places (issue 27
 * point 2): which RSVPs count as going, to which event, and how a place reads in words.
 * Pure, so both sides share it.
 */

export const RSVP_COLLECTIONS = ['community.lexicon.calendar.rsvp', 'example.groups.rsvp'] as const
const PUBLISHED_RSVP = RSVP_COLLECTIONS[0]
const EVENT_COLLECTION = 'community.lexicon.calendar.event'

/** The most places an event can have: enough for any meetup, small enough to bound the rows one event can hold. */
export const MAX_CAPACITY = 10_000

export type Standing = 'going' | 'waitlisted'

/** Where one answer puts a person at an event: a going answer in the place the host gave it (waitlisted apart), else the answer. */
export type RsvpPlace = Standing | 'interested' | 'notgoing'

/**
 * The one reading of an answer every count and list of an event comes from (issue 36:
 * the card, the door and the attendees' spreadsheet each read "going" their own way, and
 * the door counted the waitlisted as going). A host that does not decide places leaves
 * `standing` out: going is going.
 */
export function rsvpPlace(r: { status: string; standing?: Standing | null }): RsvpPlace | null {
  if (r.status === 'going') return r.standing === 'waitlisted' ? 'waitlisted' : 'going'
  return r.status === 'interested' || r.status === 'notgoing' ? r.status : null
}

export const isRsvpCollection = (collection: string): boolean => (RSVP_COLLECTIONS as readonly string[]).includes(collection)

/**
 * The event (by rkey) an RSVP answers: its subject's, when that names a calendar event
 * (another app may give its RSVP a fresh TID), else the RSVP's own rkey (the spec's rule).
 */
export function rsvpEvent(rkey: string, value: unknown): string {
  const subject = (value as { subject?: unknown } | null)?.subject
  const uri = typeof subject === 'string' ? subject : typeof (subject as { uri?: unknown } | null)?.uri === 'string' ? (subject as { uri: string }).uri : ''
  const parts = uri.split('/')
  return parts.length >= 2 && parts[parts.length - 2] === EVENT_COLLECTION && parts[parts.length - 1] ? parts[parts.length - 1]! : rkey
}

/** Whether an RSVP's status is going (the published token, or the old collection's plain word). */
export function saysGoing(value: unknown): boolean {
  const status = (value as { status?: unknown } | null)?.status
  return status === `${PUBLISHED_RSVP}#going` || status === 'going'
}

/**
 * The events a member is going to, from their RSVP records in one space: per event the
 * published collection's answer wins over the old one's, whatever order they come in.
 */
export function goingEvents(records: readonly { collection: string; rkey: string; value: unknown }[]): Set<string> {
  const answer = new Map<string, { published: boolean; going: boolean }>()
  for (const r of records) {
    if (!isRsvpCollection(r.collection)) continue
    const event = rsvpEvent(r.rkey, r.value)
    const published = r.collection === PUBLISHED_RSVP
    const had = answer.get(event)
    if (had?.published && !published) continue
    answer.set(event, { published, going: saysGoing(r.value) })
  }
  return new Set([...answer].filter(([, a]) => a.going).map(([event]) => event))
}

/** 1 → "1st", 2 → "2nd", 11 → "11th", 23 → "23rd". */
export function ordinal(n: number): string {
  const tens = n % 100
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')
  return `${n}${suffix}`
}

/** A member's own place in words: "You're going", "You're 3rd on the waitlist". */
export function standingWords(mine: { standing: Standing; position?: number }): string {
  if (mine.standing === 'going') return 'You’re going'
  return mine.position ? `You’re ${ordinal(mine.position)} on the waitlist` : 'You’re on the waitlist'
}

/** An event's places at a glance: "12 going · 3 waitlisted · capacity 12". */
export function placesWords(p: { going: number; waitlisted: number; capacity?: number }): string {
  const parts = [`${p.going} going`]
  if (p.waitlisted > 0 || p.capacity !== undefined) parts.push(`${p.waitlisted} waitlisted`)
  if (p.capacity !== undefined) parts.push(`capacity ${p.capacity}`)
  return parts.join(' · ')
}
