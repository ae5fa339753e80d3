import type { EventItem } from '../../../../shared/ipc/views'
import type { DoorData } from '../../../../shared/ipc/door-views'
import { toCsv } from '../../composables/csv'
import { RSVP_CHOICES } from '../../composables/calendar-format'
import { rsvpPlace } from '../../../../shared/rsvp-standing'

export const ATTENDEES_HEAD = ['name', 'handle', 'DID', 'answer', 'place', 'waitlist position', 'checked in', 'checked in at', 'checked in on', 'walk-in']

type Row = { did: string; name: string; handle: string; answer: string; place: string; position: string; checkIn: DoorData['checkIns'][number] | undefined }

const answerWords = (status: string) => RSVP_CHOICES.find((c) => c.status === status)?.label ?? status

/**
 * One event's attendees as a spreadsheet reads them: everyone who answered, then anyone
 * checked in without answering (walk-ins), each with their place as the host decided it
 * and their check-in at the door. Going first (in place order), then the waitlist in its
 * order, then the other answers, then walk-ins; names as the cache knows them, never a
 * DID alone (the DID has its own column for matching).
 */
export function attendeesCsv(event: Pick<EventItem, 'rsvps'>, door: Pick<DoorData, 'people' | 'checkIns'>): string {
  const people = new Map(door.people.map((p) => [p.did, p]))
  const checkIns = new Map(door.checkIns.map((c) => [c.did, c]))
  const rows: Row[] = []
  const named = (did: string, handle: string | null) => {
    const p = people.get(did)
    const c = checkIns.get(did)
    return { name: p?.displayName ?? c?.displayName ?? '', handle: handle ?? p?.handle ?? c?.handle ?? '' }
  }
  for (const r of event.rsvps) {
    const at = rsvpPlace(r)
    rows.push({
      did: r.did,
      ...named(r.did, r.handle),
      answer: answerWords(r.status),
      place: at === 'going' ? 'going' : at === 'waitlisted' ? 'waitlist' : '',
      position: at === 'waitlisted' && r.waitlistPosition ? String(r.waitlistPosition) : '',
      checkIn: checkIns.get(r.did),
    })
  }
  const answered = new Set(event.rsvps.map((r) => r.did))
  for (const c of door.checkIns) {
    if (!answered.has(c.did)) rows.push({ did: c.did, ...named(c.did, c.handle), answer: '', place: '', position: '', checkIn: c })
  }
  const rank = (r: Row) => (r.place === 'going' ? 0 : r.place === 'waitlist' ? 1 : r.answer ? 2 : 3)
  rows.sort((a, b) => rank(a) - rank(b) || (Number(a.position) || 0) - (Number(b.position) || 0))
  return toCsv(
    ATTENDEES_HEAD,
    rows.map((r) => [
      r.name,
      r.handle,
      r.did,
      r.answer,
      r.place,
      r.position,
      r.checkIn ? (r.checkIn.pending ? 'yes (not yet sent)' : 'yes') : 'no',
      r.checkIn?.checkedInAt ?? '',
      r.checkIn?.device ?? '',
      r.checkIn?.walkIn ? 'yes' : '',
    ]),
  )
}
