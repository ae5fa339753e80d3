import { TID } from '@atproto/common-web'
import { spaceRecordAddress } from '@shared/space-address.js'
import { markPending, putItem, readItem } from '../cache/items.js'
import { memberWrite } from './member-writes.js'
import type { SpaceWrite } from '../credentials/group-credentials.js'
import type { ProcedureInput } from '../xrpc/methods.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { retryLater } from '../outbox/send-failures.js'
import type { ActionTable, ActionDeps } from '../actions/action-spec.js'
import { calendarSpace, editedEventRecord, ensureCalendarSpace, EVENT_COLLECTION, EVENT_IMAGE_COLLECTION, eventAddress, eventRecord, LEGACY_RSVP_COLLECTION, RSVP_COLLECTION } from './calendar-space.js'
import { cacheEventImage, IMAGE_CONFLICTS, imageAddress, sendEventImage } from './image-actions.js'
import { eventFieldsView, rsvpToken } from './event-record.js'

async function eventOnHost(rt: ActionDeps, groupDid: string, rkey: string): Promise<boolean> {
  const host = await rt.hostOf(groupDid)
  return host
    .query('com.atproto.space.getRecord', { space: calendarSpace(groupDid), repo: groupDid, collection: EVENT_COLLECTION, rkey })
    .then(() => true)
    .catch(() => false)
}

/** The event record as the host holds it, with its CID (undefined when it is gone), so an edit keeps what it does not change. */
async function eventOnHostNow(rt: ActionDeps, groupDid: string, rkey: string): Promise<{ value: Record<string, unknown>; cid?: string } | undefined> {
  const host = await rt.hostOf(groupDid)
  try {
    const { value, cid } = await host.query('com.atproto.space.getRecord', { space: calendarSpace(groupDid), repo: groupDid, collection: EVENT_COLLECTION, rkey })
    return { value: value as Record<string, unknown>, cid }
  } catch (err) {
    if (err instanceof XrpcCallError && err.error === 'RecordNotFound') return undefined
    throw err
  }
}

/**
 * The event's CID for an RSVP's strongRef: as the host holds it now, or, when the host
 * cannot be asked (offline, down), as the last sync read it, so answering needs only
 * one's own PDS as it did before. An event the host no longer has is refused.
 */
async function eventCid(rt: ActionDeps, groupDid: string, rkey: string): Promise<string> {
  let event
  try {
    event = await eventOnHostNow(rt, groupDid, rkey)
  } catch (err) {
    const cached = await readItem<{ cid?: string | null }>(rt.cache, groupDid, 'event', rkey)
    if (retryLater(err) && cached?.cid) return cached.cid
    throw err
  }
  if (!event?.cid) throw new XrpcCallError('com.atproto.space.getRecord', 404, 'RecordNotFound', 'The event is no longer on the calendar')
  return event.cid
}

/** An event written as the group, through a group credential for the calendar space (made with the first event). */
async function writeEvent<M extends SpaceWrite>(rt: ActionDeps, groupDid: string, method: M, input: (space: string) => ProcedureInput<M>) {
  const host = await rt.hostOf(groupDid)
  const space = await ensureCalendarSpace(host, groupDid, rt.knownSpaces)
  try {
    return await rt.credentials.write(host.host, groupDid, space, method, input(space))
  } catch (err) {
    if (err instanceof XrpcCallError && err.error === 'SpaceNotFound') rt.knownSpaces.delete(space)
    throw err
  }
}

const nullable = eventFieldsView
const shortDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'short' })
/** Whether the event's image record is on the host. */
async function imageOnHost(rt: ActionDeps, groupDid: string, rkey: string): Promise<boolean> {
  try {
    await (await rt.hostOf(groupDid)).query('com.atproto.space.getRecord', { space: calendarSpace(groupDid), repo: groupDid, collection: EVENT_IMAGE_COLLECTION, rkey })
    return true
  } catch (err) {
    if (err instanceof XrpcCallError && err.error === 'RecordNotFound') return false
    throw err
  }
}

/** The capacity the host keeps for an event (null: no limit). */
async function capacityOnHost(rt: ActionDeps, groupDid: string, rkey: string): Promise<number | null> {
  const standing = await (await rt.hostOf(groupDid)).query('example.groups.getEventStanding', { space: calendarSpace(groupDid), event: rkey })
  return standing.capacity ?? null
}


/** The group's calendar: events as the group, and a member's own RSVP on their PDS. */
export const CALENDAR_ACTIONS: ActionTable<'event.create' | 'event.update' | 'event.delete' | 'event.rsvp' | 'event.capacity' | 'event.standing'> = {
  'event.create': {
    undo: 'remove',
    // The record key, chosen once: a replay re-sends the same record, never a second event.
    chooseWhenQueued: () => ({ rkey: TID.nextStr() }),
    // A series queues one per date: each row of the outbox says which.
    label: (p) => `Add “${p.event.name}”${p.event.series ? ` (${shortDate(p.event.startsAt)})` : ''} to the calendar`,
    applyToCache: async (tx, g, p, id) => {
      await putItem(tx, g, 'event', p.rkey, { rkey: p.rkey, uri: '', ...nullable(p.event), ...(p.capacity === undefined ? {} : { capacity: p.capacity }), createdAt: new Date().toISOString(), myRsvp: null }, id)
      if (p.image) await cacheEventImage(tx, g, { rkey: p.rkey, image: p.image }, id)
    },
    // The rkey is chosen when the action is queued, so a replay cannot make a second event.
    // A capacity and a picture are the host's to keep apart from the record, set right
    // after it: an attempt cut off between them finds the event there (alreadyApplied says
    // not done yet) and sets only the rest, each of which may be set again harmlessly.
    send: async (rt, g, p) => {
      const create = () => writeEvent(rt, g, 'com.atproto.space.createRecord', (space) => ({ space, repo: g, collection: EVENT_COLLECTION, rkey: p.rkey, record: eventRecord(p.event, new Date().toISOString()) }))
      if (p.capacity === undefined && !p.image) return create()
      const made = (await eventOnHost(rt, g, p.rkey)) ? undefined : await create()
      if (p.capacity !== undefined) await (await rt.hostOf(g)).procedure('example.groups.setEventCapacity', { space: calendarSpace(g), event: p.rkey, capacity: p.capacity })
      if (p.image) await sendEventImage(rt, g, { rkey: p.rkey, image: p.image })
      return made
    },
    conflicts: { Forbidden: 'Your role cannot add events to this group’s calendar.', ...IMAGE_CONFLICTS },
    alreadyApplied: async (rt, g, p) =>
      (await eventOnHost(rt, g, p.rkey)) && (p.capacity === undefined || (await capacityOnHost(rt, g, p.rkey)) === p.capacity) && (!p.image || (await imageOnHost(rt, g, p.rkey))),
    scope: { methods: ['example.groups.setEventCapacity'] },
    // The first event also makes the calendar space, but that change is not claimed as
    // ours: its cached effect is the event only, so the log's `space.created` is read like
    // anyone's and the Spaces list shows the calendar (it was missing there before).
    changes: ['record.created', 'event.capacitySet'],
    list: 'events',
    confirmed: 'keep',
    identifiers: (p, { groupDid }) => [eventAddress(groupDid, p.rkey), ...(p.image ? [imageAddress(groupDid, p.rkey)] : [])],
    settle: async (tx, g, p, change, id) => {
      if (change.kind !== 'record.created' || change.subject !== eventAddress(g, p.rkey)) return
      const event = await readItem<Record<string, unknown>>(tx, g, 'event', p.rkey)
      if (event) await putItem(tx, g, 'event', p.rkey, { ...event, uri: change.subject }, id)
    },
    answered: (p, _answer, { groupDid, now }) => [{ kind: 'record.created', subject: eventAddress(groupDid, p.rkey), createdAt: now }],
  },
  'event.update': {
    undo: 'reread',
    // Cancelling and postponing are edits of the status (the event stays on the calendar).
    label: (p) => {
      const name = p.event.series ? `“${p.event.name}” (${shortDate(p.event.startsAt)})` : `“${p.event.name}”`
      return p.event.status === 'cancelled' ? `Cancel ${name}` : p.event.status === 'postponed' ? `Postpone ${name}` : `Update ${name}`
    },
    applyToCache: async (tx, g, p, id) => {
      const e = await readItem<Record<string, unknown>>(tx, g, 'event', p.rkey)
      if (e) await putItem(tx, g, 'event', p.rkey, { ...e, ...nullable(p.event) }, id)
    },
    send: async (rt, g, p) => {
      const current = await eventOnHostNow(rt, g, p.rkey)
      return writeEvent(rt, g, 'com.atproto.space.putRecord', (space) => ({ space, repo: g, collection: EVENT_COLLECTION, rkey: p.rkey, record: editedEventRecord(current?.value, p.event, new Date().toISOString()) }))
    },
    conflicts: { Forbidden: 'Your role cannot change this group’s calendar.' },
    changes: ['record.updated', 'record.created'],
    list: 'events',
    confirmed: 'keep',
    identifiers: (p, { groupDid }) => [eventAddress(groupDid, p.rkey)],
  },
  'event.delete': {
    undo: 'unmark',
    label: () => 'Remove an event from the calendar',
    applyToCache: (tx, g, p, id) => markPending(tx, g, 'event', p.rkey, id),
    send: (rt, g, p) => writeEvent(rt, g, 'com.atproto.space.deleteRecord', (space) => ({ space, repo: g, collection: EVENT_COLLECTION, rkey: p.rkey })),
    conflicts: { Forbidden: 'Your role cannot change this group’s calendar.' },
    changes: ['record.deleted'],
    list: 'events',
    confirmed: 'remove',
    identifiers: (p, { groupDid }) => [eventAddress(groupDid, p.rkey)],
  },
  'event.rsvp': {
    undo: 'reread',
    label: (p) => `RSVP “${p.status}”`,
    applyToCache: async (tx, g, p, id) => {
      const e = await readItem<Record<string, unknown>>(tx, g, 'event', p.rkey)
      if (e) await putItem(tx, g, 'event', p.rkey, { ...e, myRsvp: p.status }, id)
    },
    // The RSVP's rkey is the event's, so answering again overwrites (spec section 4). The
    // published lexicon's subject is a strongRef: the event's CID as the host holds it now.
    send: async (rt, g, p) => {
      const cid = await eventCid(rt, g, p.rkey)
      await memberWrite(await rt.session(), 'com.atproto.space.putRecord', {
        space: calendarSpace(g),
        collection: RSVP_COLLECTION,
        rkey: p.rkey,
        record: { $type: RSVP_COLLECTION, subject: { uri: eventAddress(g, p.rkey), cid }, status: rsvpToken(p.status), createdAt: new Date().toISOString() },
      })
    },
    conflicts: { RecordNotFound: 'This event is no longer on the calendar.' },
    changes: ['record.created', 'record.updated'],
    list: 'events',
    confirmed: 'keep',
    // By its whole address: a member's RSVP has its event's record key, so a key alone would take everyone's answers for ours.
    identifiers: (p, { groupDid, me }) => [spaceRecordAddress(calendarSpace(groupDid), me, RSVP_COLLECTION, p.rkey)],
    // The host decides the answer's place at the event (going or waitlisted; a place it
    // frees goes to whoever waited): read back, and the RSVPs and places read again.
    readBack: () => true,
    rereads: true,
  },
  // Places at an event are the host's to decide (issue 27 point 2): the organizer sets the
  // capacity and moves people by hand through it, by the calendar space and the event's rkey.
  'event.capacity': {
    undo: 'reread',
    label: (p) => (p.capacity === null ? 'Remove an event’s capacity' : `Set an event’s capacity to ${p.capacity}`),
    applyToCache: async (tx, g, p, id) => {
      const e = await readItem<Record<string, unknown>>(tx, g, 'event', p.rkey)
      if (e) await putItem(tx, g, 'event', p.rkey, { ...e, capacity: p.capacity }, id)
    },
    send: async (rt, g, p) => (await rt.hostOf(g)).procedure('example.groups.setEventCapacity', { space: calendarSpace(g), event: p.rkey, ...(p.capacity === null ? {} : { capacity: p.capacity }) }),
    conflicts: { Forbidden: 'Your role cannot change this group’s calendar.', SpaceNotFound: 'This group has no calendar any more.', RecordNotFound: 'This event is no longer on the calendar.' },
    scope: { methods: ['example.groups.setEventCapacity'] },
    changes: ['event.capacitySet'],
    list: 'events',
    confirmed: 'keep',
    identifiers: (p, { groupDid }) => [eventAddress(groupDid, p.rkey)],
    // A rise may promote people waiting: their places are read back from the host.
    readBack: () => true,
    rereads: true,
  },
  'event.standing': {
    undo: 'reread',
    label: (p, name) => (p.standing === 'going' ? `Give ${name(p.did)} a place` : `Move ${name(p.did)} to the waitlist`),
    applyToCache: async (tx, g, p, id) => {
      const e = await readItem<{ rsvps?: { did: string; standing?: string | null; waitlistPosition?: number | null }[] }>(tx, g, 'event', p.rkey)
      if (!e) return
      const rsvps = (e.rsvps ?? []).map((r) => (r.did === p.did ? { ...r, standing: p.standing, waitlistPosition: null } : r))
      await putItem(tx, g, 'event', p.rkey, { ...e, rsvps }, id)
    },
    send: async (rt, g, p) => (await rt.hostOf(g)).procedure('example.groups.setRsvpStanding', { space: calendarSpace(g), event: p.rkey, did: p.did, standing: p.standing }),
    conflicts: { Forbidden: 'Your role cannot change this group’s calendar.', InvalidRequest: 'They are no longer going to this event.' },
    scope: { methods: ['example.groups.setRsvpStanding'] },
    changes: ['rsvp.promoted', 'rsvp.waitlisted'],
    list: 'events',
    confirmed: 'keep',
    // The change names the member's RSVP by its address, in either collection.
    identifiers: (p, { groupDid }) => [RSVP_COLLECTION, LEGACY_RSVP_COLLECTION].map((c) => spaceRecordAddress(calendarSpace(groupDid), p.did, c, p.rkey)),
    // Moving someone to the waitlist promotes whoever waited first: read back from the host.
    readBack: () => true,
    rereads: true,
  },
}
