import type { HostClient } from '../xrpc/host-client.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { allPages } from '../groups/pages.js'
import { calendarSpace, RSVP_COLLECTION } from './calendar-space.js'

export const RSVP_STATUSES = ['going', 'interested', 'notgoing'] as const
export type RsvpStatus = (typeof RSVP_STATUSES)[number]

/** One member's answer to one event, as the group's host serves it. */
export interface MemberRsvp {
  did: string
  status: RsvpStatus
}

interface HostMemberRecord {
  repo: string
  uri: string
  value: { status?: unknown }
}

/**
 * Every member's RSVPs in the group's calendar space, by event rkey (an RSVP's rkey is
 * its event's), from the host in one paged call (`example.groups.listMemberRecords`).
 * An answer outside the lexicon's known values is left out rather than guessed at. A
 * host without the method, a role that cannot read the calendar, or a sign-in that does
 * not cover the call yet: no one's answers are shown, and the rest of the sync goes on.
 */
export async function fetchRsvps(host: HostClient, groupDid: string): Promise<Map<string, MemberRsvp[]>> {
  let records: HostMemberRecord[]
  try {
    records = await allPages<HostMemberRecord>(async (cursor) => {
      const res = await host.query('example.groups.listMemberRecords', {
        space: calendarSpace(groupDid),
        collection: RSVP_COLLECTION,
        limit: 100,
        cursor,
      })
      return { items: Array.isArray(res.records) ? res.records : [], cursor: res.cursor }
    })
  } catch (err) {
    if (err instanceof XrpcCallError && ['Forbidden', 'SpaceNotFound', 'MethodNotImplemented', 'ScopeMissingError'].includes(err.error)) return new Map()
    if ((err as { code?: unknown }).code === 'ScopeMissingError') return new Map()
    throw err
  }
  const byEvent = new Map<string, MemberRsvp[]>()
  for (const r of records) {
    const status = r?.value?.status
    const rkey = typeof r?.uri === 'string' ? r.uri.split('/').pop() : undefined
    if (!rkey || typeof r.repo !== 'string' || !RSVP_STATUSES.includes(status as RsvpStatus)) continue
    const list = byEvent.get(rkey) ?? []
    list.push({ did: r.repo, status: status as RsvpStatus })
    byEvent.set(rkey, list)
  }
  return byEvent
}
