import { parseRecordAddress } from '../../../shared/space-address.js'
import { EVENT_COLLECTION, EVENT_IMAGE_COLLECTION, LEGACY_RSVP_COLLECTION, RSVP_COLLECTION } from '../calendar/calendar-space.js'
import type { Change, ChangeKind } from '../actions/action-spec.js'
import type { ListName } from '../cache/list-names.js'
import { ATTENDANCE_COLLECTION } from '../calendar/attendance-record.js'

/** What a change names: the lists it moved, and whether the group view itself moved; or the whole group. */
export type Named = { lists: ListName[]; group: boolean } | 'everything'

const only = (...lists: ListName[]): Named => ({ lists, group: false })
const groupView: Named = { lists: [], group: true }
// The roles were configured: a renamed role is renamed on its holders too, so the members list moves with the group view.
const configured: Named = { lists: ['members'], group: true }
// My own roles moved (or I left): what I may see and do moved with them.
const member = (change: Change, me: string): Named => (change.subject === me ? 'everything' : only('members'))
function record(change: Change): Named {
  const collection = change.subject === undefined ? undefined : parseRecordAddress(change.subject)?.collection
  if (collection === EVENT_COLLECTION || collection === RSVP_COLLECTION || collection === LEGACY_RSVP_COLLECTION) return only('events')
  // An event's image shows on the event.
  if (collection === EVENT_IMAGE_COLLECTION) return only('events')
  if (collection === 'example.groups.space') return only('spaces')
  // A check-in at the door is read with the events.
  if (collection === ATTENDANCE_COLLECTION) return only('events')
  return only()
}
// A takedown or restore moves what members are served and the moderation queue's mark.
const takedown = only('events', 'spaces', 'subjects')

/**
 * The lists each kind of change moves, for every kind the lexicon knows (a kind added
 * there does not compile until it is named here).
 */
const NAMED: Record<ChangeKind, Named | ((change: Change, me: string) => Named)> = {
  'group.created': groupView,
  'group.configured': configured,
  'joinRequest.created': only('requests'),
  'joinRequest.cancelled': only('requests'),
  'joinRequest.admitted': only('requests', 'members'),
  'joinRequest.denied': only('requests'),
  'member.joined': member,
  'member.left': member,
  'member.ejected': member,
  'member.accepted': member,
  'member.acceptanceWithdrawn': member,
  'member.roleGranted': member,
  'member.roleRevoked': member,
  'ban.created': only(),
  'ban.lifted': only(),
  'invite.created': only('invites'),
  'invite.revoked': only('invites'),
  'invite.declined': only('invites'),
  'invite.redeemed': only('invites', 'members', 'requests'),
  'space.created': only('spaces', 'events'),
  'space.updated': only('spaces', 'events'),
  'space.deleted': only('spaces', 'events'),
  'record.created': record,
  'record.updated': record,
  'record.deleted': record,
  'record.takenDown': takedown,
  'record.restored': takedown,
  'subject.reported': only('subjects'),
  'subject.updated': only('subjects'),
  // A place at an event moved (the subject is the RSVP's or the event's address): the events list holds places.
  'rsvp.promoted': record,
  'rsvp.waitlisted': record,
  'event.capacitySet': record,
}

export const isChangeKind = (kind: string): kind is ChangeKind => Object.hasOwn(NAMED, kind)

/** What a change names; a kind this app does not know yet reads the group whole rather than miss it. */
export function listsNamed(change: Change, me: string): Named {
  if (!isChangeKind(change.kind)) return 'everything'
  const named = NAMED[change.kind]
  return typeof named === 'function' ? named(change, me) : named
}
