import type { HostClient } from '../xrpc/host-client.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { allPages } from '../xrpc/host-pages.js'
import { calendarSpace, LEGACY_RSVP_COLLECTION, RSVP_COLLECTION } from './calendar-space.js'
import { mergeAnswers, type RsvpStatus } from './rsvp-records.js'
import type { Standing } from '../../../shared/rsvp-standing.js'

/** One member's answer to one event, as the group's host serves it. */
export interface MemberRsvp {
  did: string
  status: RsvpStatus
  /** A going answer's place, as the host decided it (issue 27 point 2); null from a host that does not. */
  standing: Standing | null
  waitlistPosition: number | null
}

/**
 * Every member's RSVPs in the group's calendar space, by event rkey, from the host in
 * one paged call per collection (`example.groups.listMemberRecords`): the published
 * community.lexicon.calendar.rsvp (written by Convene now, and by other calendar apps)
 * and example.groups.rsvp (written by Convene before); a member's answer in the
 * published collection wins over their old one for the same event. An answer outside the
 * lexicon's known values is left out rather than guessed at. A host without the method,
 * a role that cannot read the calendar, or a sign-in that does not cover the call yet:
 * no one's answers are shown, and the rest of the sync goes on.
 */
export async function fetchRsvps(host: HostClient, groupDid: string): Promise<Map<string, MemberRsvp[]>> {
  // The answers are checked against the lexicon (validated-call.ts): uri and repo are there.
  const read = (collection: string) =>
    allPages(async (cursor) => {
      const res = await host.query('example.groups.listMemberRecords', { space: calendarSpace(groupDid), collection, limit: 100, cursor })
      return { items: res.records, cursor: res.cursor }
    })
  let legacy, current
  try {
    ;[legacy, current] = await Promise.all([read(LEGACY_RSVP_COLLECTION), read(RSVP_COLLECTION)])
  } catch (err) {
    if (err instanceof XrpcCallError && ['Forbidden', 'SpaceNotFound', 'MethodNotImplemented'].includes(err.error)) return new Map()
    // A sign-in that does not cover the call yet (mint-service-auth.ts).
    if ((err as { code?: unknown }).code === 'ScopeMissingError') return new Map()
    throw err
  }
  // A moderator's reader is served taken-down answers too, marked: they are not counted.
  const shown = (rs: typeof current) => rs.filter((r) => !r.takenDown)
  const byEvent = new Map<string, MemberRsvp[]>()
  for (const { event, status, record } of mergeAnswers(shown(legacy), shown(current), (r) => r.repo).values()) {
    const standing: Standing | null = status === 'going' && (record.standing === 'going' || record.standing === 'waitlisted') ? (record.standing as Standing) : null
    const waitlistPosition = standing === 'waitlisted' && typeof record.waitlistPosition === 'number' ? record.waitlistPosition : null
    byEvent.set(event, [...(byEvent.get(event) ?? []), { did: record.repo, status, standing, waitlistPosition }])
  }
  return byEvent
}

/**
 * The capacity the host keeps for each of `rkeys` (one `getEventStanding` each, at most
 * {@link CAPACITY_READS} at once: the calendar's coming events, where a place matters).
 * A host without the method, or a call the sign-in does not cover yet: none are known.
 * An event the host no longer keeps (deleted, taken down) is left out alone.
 */
export async function fetchCapacities(host: HostClient, groupDid: string, rkeys: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>()
  try {
    // An event deleted or taken down since the list was read has no places: only it is left out.
    const standingOf = (event: string) =>
      host.query('example.groups.getEventStanding', { space: calendarSpace(groupDid), event }).catch((err: unknown) => {
        if (err instanceof XrpcCallError && err.error === 'RecordNotFound') return null
        throw err
      })
    const answers = await Promise.all(rkeys.slice(0, CAPACITY_READS).map(async (event) => [event, await standingOf(event)] as const))
    for (const [event, a] of answers) if (typeof a?.capacity === 'number') out.set(event, a.capacity)
  } catch (err) {
    if (err instanceof XrpcCallError || (err as { code?: unknown }).code === 'ScopeMissingError') return new Map()
    throw err
  }
  return out
}
const CAPACITY_READS = 50
