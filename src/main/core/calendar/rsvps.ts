import type { HostClient } from '../xrpc/host-client.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { allPages } from '../groups/host-pages.js'
import { calendarSpace, RSVP_COLLECTION } from './calendar-space.js'
import { RSVP_STATUSES } from '../../../shared/ipc/views.js'

type RsvpStatus = (typeof RSVP_STATUSES)[number]

/** One member's answer to one event, as the group's host serves it. */
export interface MemberRsvp {
  did: string
  status: RsvpStatus
}

/**
 * Every member's RSVPs in the group's calendar space, by event rkey (an RSVP's rkey is
 * its event's), from the host in one paged call (`example.groups.listMemberRecords`).
 * An answer outside the lexicon's known values is left out rather than guessed at. A
 * host without the method, a role that cannot read the calendar, or a sign-in that does
 * not cover the call yet: no one's answers are shown, and the rest of the sync goes on.
 */
export async function fetchRsvps(host: HostClient, groupDid: string): Promise<Map<string, MemberRsvp[]>> {
  let records
  try {
    // The answers are checked against the lexicon (validated-call.ts): uri and repo are there.
    records = await allPages(async (cursor) => {
      const res = await host.query('example.groups.listMemberRecords', { space: calendarSpace(groupDid), collection: RSVP_COLLECTION, limit: 100, cursor })
      return { items: res.records, cursor: res.cursor }
    })
  } catch (err) {
    if (err instanceof XrpcCallError && ['Forbidden', 'SpaceNotFound', 'MethodNotImplemented'].includes(err.error)) return new Map()
    // A sign-in that does not cover the call yet (mint-service-auth.ts).
    if ((err as { code?: unknown }).code === 'ScopeMissingError') return new Map()
    throw err
  }
  const byEvent = new Map<string, MemberRsvp[]>()
  for (const r of records) {
    // A moderator's reader is served taken-down answers too, marked: they are not counted.
    if (r.takenDown) continue
    // A record's value is the member's own: only its status is read, and only a known one.
    const status = (r.value as { status?: unknown }).status
    if (!RSVP_STATUSES.includes(status as RsvpStatus)) continue
    const rkey = r.uri.split('/').pop()!
    byEvent.set(rkey, [...(byEvent.get(rkey) ?? []), { did: r.repo, status: status as RsvpStatus }])
  }
  return byEvent
}
