import type { Kysely } from 'kysely'
import type { CacheSchema } from '../cache/cache-db.js'
import { readItem, readItems } from '../cache/items.js'
import type { HostClient } from '../xrpc/host-client.js'
import { UserFacingError } from '../ipc/errors.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { allPages } from '../xrpc/host-pages.js'
import { knownHandles } from '../people/list-handles.js'
import { knownProfiles } from '../people/profile-cache.js'
import { calendarSpace } from './calendar-space.js'
import { ATTENDANCE_COLLECTION, attendanceFromRecord, doorDeviceName, type AttendanceEntry } from './attendance-record.js'
import type { AttendanceHistory, CheckIn, DoorData, DoorPerson } from '@shared/ipc/door-views.js'
import { rsvpPlace, type Standing } from '@shared/rsvp-standing.js'
import { doorCodesFor } from './door-codes.js'

/**
 * Every check-in in the group's calendar space, as the host serves them (read with the
 * events). No calendar yet, or a role that cannot read it: none.
 */
export async function fetchAttendance(host: HostClient, groupDid: string): Promise<AttendanceEntry[]> {
  try {
    const records = await allPages(async (cursor) => {
      const res = await host.query('com.atproto.space.listRecords', { space: calendarSpace(groupDid), repo: groupDid, collection: ATTENDANCE_COLLECTION, limit: 100, cursor })
      return { items: res.records, cursor: res.cursor }
    })
    return records.flatMap((r) => attendanceFromRecord(r.uri.split('/').pop()!, r.value as Record<string, unknown>) ?? [])
  } catch (err) {
    if (err instanceof XrpcCallError && (err.error === 'SpaceNotFound' || err.error === 'Forbidden')) return []
    throw err
  }
}

interface CachedEvent {
  rkey: string
  name: string
  startsAt: string
  rsvps?: { did: string; handle: string | null; status: string; standing?: Standing | null; waitlistPosition?: number | null }[]
}
interface CachedMember {
  did: string
  handle: string | null
  displayName?: string | null
}

/**
 * What door mode shows for one event, from the cache only (so it works with the network
 * gone): everyone who answered "going" first, then the other members, and who is already
 * checked in (queued check-ins too, with the outbox row that can still be cancelled).
 */
export async function doorData(cache: Kysely<CacheSchema>, groupDid: string, rkey: string): Promise<DoorData> {
  const event = await readItem<CachedEvent>(cache, groupDid, 'event', rkey)
  if (!event) throw new UserFacingError('NotFound', 'That event is no longer on the calendar.')
  const members = await readItems<CachedMember>(cache, groupDid, 'member')
  // The same reading of an answer as the event's card (rsvp-standing.ts): the waitlisted are not said to be going.
  const answers = new Map((event.rsvps ?? []).map((r) => [r.did, r]))
  const place = (did: string) => {
    const r = answers.get(did)
    const at = r ? rsvpPlace(r) : null
    return { going: at === 'going', waitlisted: at === 'waitlisted', waitlistPosition: at === 'waitlisted' ? (r?.waitlistPosition ?? null) : null, code: null }
  }
  const people = new Map<string, DoorPerson>()
  for (const m of members) people.set(m.did, { did: m.did, handle: m.handle, displayName: m.displayName ?? null, avatar: null, ...place(m.did), member: true })
  for (const r of event.rsvps ?? []) if (!people.has(r.did)) people.set(r.did, { did: r.did, handle: r.handle, displayName: null, avatar: null, ...place(r.did), member: false })
  const rows = await cache
    .selectFrom('item')
    .select(['view', 'pendingAction'])
    .where('groupDid', '=', groupDid)
    .where('kind', '=', 'attendance')
    .where('key', 'like', `${rkey}-%`)
    .execute()
  const entries = rows.map((r) => ({ ...(JSON.parse(r.view) as AttendanceEntry), pendingAction: r.pendingAction })).filter((e) => e.event === rkey)
  // A walk-in is no member and may not have answered: named by the handle the cache verified.
  const strangers = entries.map((e) => e.did).filter((did) => did && !people.has(did))
  const handles = strangers.length ? await knownHandles(cache, strangers) : new Map<string, string | null>()
  // Faces beside names (issue 36): the profiles the core already read, never a fetch at the door.
  const faces = await knownProfiles(cache, [...people.keys(), ...strangers])
  for (const p of people.values()) {
    const face = faces.get(p.did)
    p.avatar = face?.avatar ?? null
    p.displayName ??= face?.displayName ?? null
  }
  const codes = doorCodesFor(groupDid, rkey, people.keys())
  for (const p of people.values()) p.code = codes.get(p.did) ?? null
  const device = doorDeviceName()
  // A check-in being taken back (attendance.undo queued) is no longer shown as checked in,
  // nor one refused (a walk-in's handle that names no one) before the next read clears it.
  const outbox = await cache.selectFrom('outbox').select(['id', 'kind', 'state']).where('groupDid', '=', groupDid).where('state', 'in', ['queued', 'sending', 'failed', 'conflict']).execute()
  const undoing = new Set(outbox.filter((o) => (o.kind === 'attendance.undo' && (o.state === 'queued' || o.state === 'sending')) || o.state === 'failed' || o.state === 'conflict').map((o) => o.id))
  const checkIns: CheckIn[] = entries
    .filter((e) => e.pendingAction === null || !undoing.has(e.pendingAction))
    .map((e) => {
      const p = people.get(e.did)
      return {
        did: e.did,
        // A walk-in queued by handle (no DID yet) is named by the handle typed.
        handle: p?.handle ?? handles.get(e.did) ?? e.handle ?? null,
        displayName: p?.displayName ?? faces.get(e.did)?.displayName ?? null,
        avatar: p?.avatar ?? faces.get(e.did)?.avatar ?? null,
        checkedInAt: e.checkedInAt,
        device: e.device,
        here: e.device === device,
        walkIn: e.walkIn,
        pending: e.pendingAction !== null,
        outboxId: e.pendingAction,
      }
    })
    .sort((a, b) => b.checkedInAt.localeCompare(a.checkedInAt))
  return { event: { rkey: event.rkey, name: event.name, startsAt: event.startsAt }, device, people: [...people.values()], checkIns }
}

/** How many past events a member's attendance history looks back over. */
export const HISTORY_EVENTS = 6

/**
 * "Came to 4 of the last 6": over the group's last past events where attendance was
 * taken (any check-in at all), from the cache.
 */
export async function attendanceHistory(cache: Kysely<CacheSchema>, groupDid: string, did: string, now = new Date()): Promise<AttendanceHistory> {
  // A walk-in not looked up yet (no DID) is no one's attendance until it is sent.
  const entries = (await readItems<AttendanceEntry>(cache, groupDid, 'attendance')).filter((e) => e.did)
  const taken = new Set(entries.map((e) => e.event))
  const events = (await readItems<CachedEvent>(cache, groupDid, 'event'))
    .filter((e) => taken.has(e.rkey) && Date.parse(e.startsAt) <= now.getTime())
    .sort((a, b) => Date.parse(b.startsAt) - Date.parse(a.startsAt))
    .slice(0, HISTORY_EVENTS)
  const came = new Set(entries.filter((e) => e.did === did).map((e) => e.event))
  return { of: events.length, came: events.filter((e) => came.has(e.rkey)).length }
}

/** Who came to each event (by event rkey), named as the members list names them; from the cache. */
export async function cameTo(cache: Kysely<CacheSchema>, groupDid: string): Promise<Map<string, { did: string; handle: string | null; displayName: string | null }[]>> {
  const entries = (await readItems<AttendanceEntry>(cache, groupDid, 'attendance')).filter((e) => e.did)
  const out = new Map<string, { did: string; handle: string | null; displayName: string | null }[]>()
  if (!entries.length) return out
  const dids = [...new Set(entries.map((e) => e.did))]
  const members = new Map((await readItems<CachedMember>(cache, groupDid, 'member')).map((m) => [m.did, m]))
  const handles = await knownHandles(cache, dids)
  for (const e of entries.sort((a, b) => a.checkedInAt.localeCompare(b.checkedInAt))) {
    const m = members.get(e.did)
    out.set(e.event, [...(out.get(e.event) ?? []), { did: e.did, handle: m?.handle ?? handles.get(e.did) ?? null, displayName: m?.displayName ?? null }])
  }
  return out
}
