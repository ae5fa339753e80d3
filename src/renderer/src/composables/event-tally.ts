import type { EventItem } from '../../../shared/ipc/views'
import { ordinal, rsvpPlace } from '../../../shared/rsvp-standing'

type Rsvp = EventItem['rsvps'][number]

/** One person in an event's tally: "you" for the viewer, with their place when they wait. */
export interface TalliedPerson {
  did: string
  handle: string | null
  you: boolean
  /** 1-based place on the waitlist, for those waiting. */
  position: number | null
}

/** Who said what, with those the host put on the waitlist apart from those going. */
export interface EventTally {
  going: TalliedPerson[]
  waitlisted: TalliedPerson[]
  interested: TalliedPerson[]
  notgoing: TalliedPerson[]
  capacity: number | null
}

/**
 * The one reading of an event's answers every count and list on its card comes from
 * (issue 36 point 3: "2 going · 1 waitlisted" above "3 going" was two readings). Everyone's
 * answers are the host's; the viewer's own is the one they last gave (it reaches the host
 * a moment later), in the place the host last gave it.
 */
export function tallyEvent(event: Pick<EventItem, 'rsvps' | 'myRsvp' | 'capacity'>, me: string): EventTally {
  const tally: EventTally = { going: [], waitlisted: [], interested: [], notgoing: [], capacity: event.capacity }
  const place = (r: Rsvp | undefined, you: boolean, status: string) => {
    const person = { did: r?.did ?? me, handle: r?.handle ?? null, you, position: null as number | null }
    const at = rsvpPlace({ status, standing: r?.standing })
    if (at === 'waitlisted') tally.waitlisted.push({ ...person, position: r?.waitlistPosition ?? null })
    else if (at) tally[at].push(person)
  }
  const mine = event.rsvps.find((r) => r.did === me)
  if (event.myRsvp) place(mine, true, event.myRsvp)
  for (const r of event.rsvps) if (r.did !== me) place(r, false, r.status)
  tally.waitlisted.sort((a, b) => (a.position ?? Infinity) - (b.position ?? Infinity))
  return tally
}

/** Whether the card speaks of places at all: a capacity is set, or someone waits. */
export const hasPlaces = (t: EventTally) => t.capacity !== null || t.waitlisted.length > 0

/** A person in a list of names: "you", "@sam.example.com", and a waiting one's place ("(2nd)"). */
export const tallyName = (p: TalliedPerson) => `${p.you ? 'you' : p.handle ? `@${p.handle}` : p.did}${p.position ? ` (${ordinal(p.position)})` : ''}`
