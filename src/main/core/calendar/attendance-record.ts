import { createHash } from 'node:crypto'
import os from 'node:os'

/** A check-in at the door: group-authored, in the calendar space (lexicons/example/groups/attendance.json). */
export const ATTENDANCE_COLLECTION = 'example.groups.attendance'

/**
 * The record key of one person's check-in at one event: the event's rkey, a hyphen and
 * 16 hex of SHA-256 over the DID. The same person at the same event always lands on the
 * same record, whichever door laptop sends it and however often a replay sends it again.
 */
export const attendanceRkey = (eventRkey: string, did: string) => `${eventRkey}-${createHash('sha256').update(did).digest('hex').slice(0, 16)}`

/** Where a walk-in queued by handle waits in the cache (no DID yet): under the event, apart from every DID's key. */
export const walkInKey = (eventRkey: string, handle: string) => `${eventRkey}-@${handle}`

/** The name this computer checks people in under ("Checked in on <name>"): set for tests by CONVENE_DEVICE_NAME. */
export const doorDeviceName = () => (process.env.CONVENE_DEVICE_NAME?.trim() || os.hostname() || 'this computer').slice(0, 64)

/** One check-in as the cache keeps it (and the door and the event show it). */
export interface AttendanceEntry {
  rkey: string
  /** The event's rkey. */
  event: string
  /** '' for a walk-in queued by handle and not looked up yet (see `handle`). */
  did: string
  /** A walk-in queued by handle while it could not be looked up: shown by it until sent. */
  handle?: string
  checkedInAt: string
  device: string | null
  walkIn: boolean
}

/** The record as written: the event named by its at-uri, as an RSVP's strongRef names it. */
export function attendanceRecord(groupDid: string, eventCollection: string, e: Omit<AttendanceEntry, 'rkey' | 'handle'>, now: string) {
  return {
    $type: ATTENDANCE_COLLECTION,
    event: `at://${groupDid}/${eventCollection}/${e.event}`,
    subject: e.did,
    checkedInAt: e.checkedInAt,
    ...(e.device ? { checkedInBy: e.device } : {}),
    walkIn: e.walkIn,
    createdAt: now,
  }
}

/** Any app's attendance record, read field by field; null when it names no event or person. */
export function attendanceFromRecord(rkey: string, value: Record<string, unknown>): AttendanceEntry | null {
  const event = typeof value.event === 'string' ? value.event.split('/').pop() : undefined
  const did = typeof value.subject === 'string' && value.subject.startsWith('did:') ? value.subject : undefined
  if (!event || !did) return null
  const checkedInAt = typeof value.checkedInAt === 'string' ? value.checkedInAt : typeof value.createdAt === 'string' ? value.createdAt : ''
  return { rkey, event, did, checkedInAt, device: typeof value.checkedInBy === 'string' ? value.checkedInBy : null, walkIn: value.walkIn === true }
}
