import { spaceRecordAddress } from '@shared/space-address.js'
import { markPending, putItem } from '../cache/items.js'
import type { ActionPayloads, ActionTable, ActionDeps } from '../actions/action-spec.js'
import type { HostClient } from '../xrpc/host-client.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { calendarSpace, ensureCalendarSpace, EVENT_COLLECTION, membersSpace, CALENDAR_TYPE } from './calendar-space.js'
import { ATTENDANCE_COLLECTION, attendanceFromRecord, attendanceRecord, attendanceRkey, doorDeviceName, walkInKey, type AttendanceEntry } from './attendance-record.js'
import { UserFacingError } from '../ipc/errors.js'
import { rememberHandle } from '../people/list-handles.js'

const address = (groupDid: string, rkey: string) => spaceRecordAddress(calendarSpace(groupDid), groupDid, ATTENDANCE_COLLECTION, rkey)

/** The check-in as the host holds it now (undefined: nobody checked them in yet). */
async function checkInOnHost(host: HostClient, groupDid: string, rkey: string): Promise<AttendanceEntry | undefined> {
  try {
    const { value } = await host.query('com.atproto.space.getRecord', { space: calendarSpace(groupDid), repo: groupDid, collection: ATTENDANCE_COLLECTION, rkey })
    return attendanceFromRecord(rkey, value as Record<string, unknown>) ?? undefined
  } catch (err) {
    if (err instanceof XrpcCallError && (err.error === 'RecordNotFound' || err.error === 'SpaceNotFound')) return undefined
    throw err
  }
}

/** Calendars whose credential scopes are known to take attendance records, per account (asked once a run). */
const writable = new WeakMap<ActionDeps, Set<string>>()

/**
 * A calendar space made before attendance existed lets owners and admins write events
 * and images only. The first check-in adds attendance to every role's scopes that may
 * already write events (updateSpace, once), and drops the held credential so the next
 * one carries it. Spaces made from now on name it from the start (calendar-space.ts).
 */
async function ensureAttendanceWritable(rt: ActionDeps, host: HostClient, groupDid: string, space: string): Promise<void> {
  const known = writable.get(rt) ?? new Set<string>()
  writable.set(rt, known)
  if (known.has(space)) return
  const { value } = await host.query('com.atproto.space.getRecord', { space: membersSpace(groupDid), repo: groupDid, collection: 'example.groups.space', rkey: `${CALENDAR_TYPE}:self` })
  const scopes = ((value as { credentialScopes?: { role: string; scopes: string[] }[] }).credentialScopes ?? []).map((c) => ({ role: c.role, scopes: [...c.scopes] }))
  const lacking = scopes.filter((c) => c.scopes.includes(EVENT_COLLECTION) && !c.scopes.includes(ATTENDANCE_COLLECTION) && !c.scopes.includes('*'))
  if (lacking.length > 0) {
    for (const c of lacking) c.scopes.push(ATTENDANCE_COLLECTION)
    await host.procedure('example.groups.updateSpace', { group: groupDid, space, credentialScopes: scopes })
    rt.credentials.drop(groupDid, space)
  }
  known.add(space)
}

type CheckIn = ActionPayloads['attendance.checkIn']

/** Where a queued check-in shows in the cache: at its record's key, or a walk-in's handle's until it is looked up. */
const cacheKey = (p: CheckIn) => (p.did ? attendanceRkey(p.rkey, p.did) : walkInKey(p.rkey, p.handle ?? ''))

/**
 * Whom the check-in is for: its DID, or a walk-in's handle looked up now, both ways
 * (people/walk-in-lookup.ts). A handle naming no one throws the refusal the outbox row
 * and the door show; one that cannot be looked up yet throws "try again later".
 */
async function personOf(rt: ActionDeps, p: CheckIn): Promise<string> {
  if (p.did) return p.did
  if (!p.handle) throw new UserFacingError('InvalidRequest', 'This check-in names no one.')
  const did = await rt.walkIns(p.handle)
  await rememberHandle(rt.cache, did, p.handle)
  return did
}

/**
 * A walk-in queued by handle, now known by DID: its waiting row moves to the record's key
 * (still marked with its outbox row, which settles it), or goes when that key already
 * shows them (another check-in of theirs), so they are never shown twice.
 */
async function placeWalkIn(rt: ActionDeps, g: string, p: CheckIn, did: string, there?: AttendanceEntry): Promise<void> {
  if (p.did || !p.handle) return
  const from = walkInKey(p.rkey, p.handle)
  const rkey = attendanceRkey(p.rkey, did)
  await rt.cache.transaction().execute(async (tx) => {
    const taken = await tx.selectFrom('item').select('key').where('groupDid', '=', g).where('kind', '=', 'attendance').where('key', '=', rkey).executeTakeFirst()
    if (taken || there) {
      await tx.deleteFrom('item').where('groupDid', '=', g).where('kind', '=', 'attendance').where('key', '=', from).execute()
      if (there) await putItem(tx, g, 'attendance', rkey, there, null)
      return
    }
    const entry: AttendanceEntry = { rkey, event: p.rkey, did, checkedInAt: p.checkedInAt, device: p.device, walkIn: p.walkIn }
    await tx.updateTable('item').set({ key: rkey, view: JSON.stringify(entry) }).where('groupDid', '=', g).where('kind', '=', 'attendance').where('key', '=', from).execute()
  })
}

/** Check-ins at the door (issue 27): group-authored attendance records at a key per event and person. */
export const ATTENDANCE_ACTIONS: ActionTable<'attendance.checkIn' | 'attendance.undo'> = {
  'attendance.checkIn': {
    undo: 'remove',
    // When the person was at the door and which laptop took it: not when the network came back.
    chooseWhenQueued: () => ({ checkedInAt: new Date().toISOString(), device: doorDeviceName() }),
    label: (p, name) => (p.did ? `Check in ${name(p.did)}` : `Check in @${p.handle} (walk-in)`),
    // Shown at once, from the cache: the door works with the network gone (a walk-in by the handle typed).
    applyToCache: (tx, g, p, id) =>
      putItem(tx, g, 'attendance', cacheKey(p), { rkey: cacheKey(p), event: p.rkey, did: p.did ?? '', ...(p.did ? {} : { handle: p.handle }), checkedInAt: p.checkedInAt, device: p.device, walkIn: p.walkIn } satisfies AttendanceEntry, id),
    /**
     * Written with putRecord at the key of the event and person, so a replay lands on the
     * same record. Read first: when another door laptop already checked them in, theirs
     * stands (nothing is written) and the cache takes the host's record, which the door
     * shows as "Already checked in at 18:04 on <their laptop>": settled, not an error.
     * A walk-in queued by handle is looked up first, and then goes the same way.
     */
    send: async (rt, g, p) => {
      const did = await personOf(rt, p)
      const host = await rt.hostOf(g)
      const space = await ensureCalendarSpace(host, g, rt.knownSpaces)
      const rkey = attendanceRkey(p.rkey, did)
      const there = await checkInOnHost(host, g, rkey)
      if (there) {
        // Ours from an interrupted attempt is done; anyone else's (another laptop, earlier) stands.
        if (!p.did) await placeWalkIn(rt, g, p, did, there)
        else if (there.device !== p.device || there.checkedInAt !== p.checkedInAt) await putItem(rt.cache, g, 'attendance', rkey, there, null)
        return { uri: address(g, rkey) }
      }
      await ensureAttendanceWritable(rt, host, g, space)
      const answer = await rt.credentials.write(host.host, g, space, 'com.atproto.space.putRecord', {
        space,
        repo: g,
        collection: ATTENDANCE_COLLECTION,
        rkey,
        record: attendanceRecord(g, EVENT_COLLECTION, { event: p.rkey, did, checkedInAt: p.checkedInAt, device: p.device, walkIn: p.walkIn }, new Date().toISOString()),
      })
      await placeWalkIn(rt, g, p, did)
      // The address names the record for the catch-up, a walk-in's too (its payload has no DID).
      return { ...(answer as object), uri: address(g, rkey) }
    },
    conflicts: { Forbidden: 'Your role cannot check people in at this group’s events.' },
    alreadyApplied: async (rt, g, p) => !!(await checkInOnHost(await rt.hostOf(g), g, attendanceRkey(p.rkey, await personOf(rt, p)))),
    changes: ['record.created', 'record.updated'],
    list: 'events',
    confirmed: 'keep',
    identifiers: (p, { groupDid, answer }) => (p.did ? [address(groupDid, attendanceRkey(p.rkey, p.did))] : answer.uri ? [answer.uri] : []),
  },
  'attendance.undo': {
    undo: 'unmark',
    label: (p, name) => `Take back ${name(p.did)}’s check-in`,
    applyToCache: (tx, g, p, id) => markPending(tx, g, 'attendance', attendanceRkey(p.rkey, p.did), id),
    send: async (rt, g, p) => {
      const host = await rt.hostOf(g)
      const space = await ensureCalendarSpace(host, g, rt.knownSpaces)
      await ensureAttendanceWritable(rt, host, g, space)
      return rt.credentials.write(host.host, g, space, 'com.atproto.space.deleteRecord', { space, repo: g, collection: ATTENDANCE_COLLECTION, rkey: attendanceRkey(p.rkey, p.did) })
    },
    conflicts: { Forbidden: 'Your role cannot check people in at this group’s events.' },
    changes: ['record.deleted'],
    list: 'events',
    confirmed: 'remove',
    identifiers: (p, { groupDid }) => [address(groupDid, attendanceRkey(p.rkey, p.did))],
  },
}
