import type { HostClient } from '../xrpc/host-client.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { EVENT_COLLECTION } from './event-record.js'
import { formatSpaceAddress, spaceRecordAddress } from '../../../shared/space-address.js'
import { ATTENDANCE_COLLECTION } from './attendance-record.js'

export const CALENDAR_TYPE = 'community.lexicon.calendar'
export { EVENT_COLLECTION, RSVP_COLLECTION, eventRecord, editedEventRecord } from './event-record.js'
export const EVENT_IMAGE_COLLECTION = 'example.groups.eventImage'
/**
 * Where Convene wrote RSVPs before it wrote the published community.lexicon.calendar.rsvp:
 * still read (rsvps.ts, my-rsvps.ts), never written; an answer in the new collection wins
 * over one here for the same event.
 */
export const LEGACY_RSVP_COLLECTION = 'example.groups.rsvp'
export const ACCEPTANCE_COLLECTION = 'example.groups.acceptance'

export const calendarSpace = (groupDid: string) => formatSpaceAddress({ authority: groupDid, type: CALENDAR_TYPE, skey: 'self' })

/**
 * An event's address: how the change log names it, and how an RSVP and an image name their
 * event (issue 36 #4): the address the host handed out for it
 * (`<calendar space>/<group>/community.lexicon.calendar.event/<rkey>`), which any app can
 * resolve with `com.atproto.space.getRecord`. It has more path segments than the `at-uri`
 * format allows; the host takes it where an at-uri is asked for (docs/spaces.md, "How a
 * record names a record in a space"), and still takes the short form Convene wrote before.
 */
export const eventAddress = (groupDid: string, rkey: string) => spaceRecordAddress(calendarSpace(groupDid), groupDid, EVENT_COLLECTION, rkey)
export const membersSpace = (groupDid: string) => formatSpaceAddress({ authority: groupDid, type: 'members', skey: 'self' })

/**
 * The group's calendar space, created the first time the group needs it (spec
 * section 4: check the members-space index first, so no second one is made).
 */
export async function ensureCalendarSpace(host: HostClient, groupDid: string, known?: Set<string>): Promise<string> {
  // Spaces are not deleted under our feet often; a write to a deleted one fails with
  // SpaceNotFound and the caller forgets it.
  if (known?.has(calendarSpace(groupDid))) return calendarSpace(groupDid)
  const uri = await findOrCreate(host, groupDid)
  known?.add(uri)
  return uri
}

async function findOrCreate(host: HostClient, groupDid: string): Promise<string> {
  try {
    await host.query('com.atproto.space.getRecord', {
      space: membersSpace(groupDid),
      repo: groupDid,
      collection: 'example.groups.space',
      rkey: `${CALENDAR_TYPE}:self`,
    })
    return calendarSpace(groupDid)
  } catch (err) {
    if (!(err instanceof XrpcCallError && err.error === 'RecordNotFound')) throw err
  }
  const { uri } = await host.procedure('example.groups.createSpace', {
    group: groupDid,
    type: CALENDAR_TYPE,
    skey: 'self',
    name: 'Calendar',
    readableBy: ['owner', 'admin', 'moderator', 'member'],
    credentialScopes: [
      { role: 'owner', scopes: [EVENT_COLLECTION, EVENT_IMAGE_COLLECTION, ATTENDANCE_COLLECTION] },
      { role: 'admin', scopes: [EVENT_COLLECTION, EVENT_IMAGE_COLLECTION, ATTENDANCE_COLLECTION] },
    ],
  })
  return uri
}
