import type { HostClient } from '../xrpc/host-client.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import type { EventFields } from '../actions/action-spec.js'
import { formatSpaceAddress } from '../../../shared/space-address.js'

export const CALENDAR_TYPE = 'community.lexicon.calendar'
export const EVENT_COLLECTION = 'community.lexicon.calendar.event'
export const EVENT_IMAGE_COLLECTION = 'example.groups.eventImage'
export const RSVP_COLLECTION = 'example.groups.rsvp'
export const ACCEPTANCE_COLLECTION = 'example.groups.acceptance'

/** A calendar event record as the group writes it (community.lexicon.calendar.event). */
export const eventRecord = (e: EventFields, createdAt: string) => ({ $type: EVENT_COLLECTION, ...e, createdAt })

/** The fields Convene's event form owns: an edit sets or clears these and nothing else. */
const FORM_FIELDS = new Set(['name', 'startsAt', 'endsAt', 'description', 'location'])

/**
 * An edited event written back over the record as it stands: fields other apps wrote
 * (and Convene's form does not show) are kept whole, and so is when it was created.
 */
export function editedEventRecord(current: Record<string, unknown> | undefined, e: EventFields, now: string) {
  const kept = Object.fromEntries(Object.entries(current ?? {}).filter(([k]) => !FORM_FIELDS.has(k)))
  const createdAt = typeof current?.createdAt === 'string' ? current.createdAt : now
  return { ...kept, ...eventRecord(e, createdAt) }
}

export const calendarSpace = (groupDid: string) => formatSpaceAddress({ authority: groupDid, type: CALENDAR_TYPE, skey: 'self' })
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
      { role: 'owner', scopes: [EVENT_COLLECTION, EVENT_IMAGE_COLLECTION] },
      { role: 'admin', scopes: [EVENT_COLLECTION, EVENT_IMAGE_COLLECTION] },
    ],
  })
  return uri
}
