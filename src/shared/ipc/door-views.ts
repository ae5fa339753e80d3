import { z } from 'zod'

/** One check-in at an event, as the cache holds it (queued ones too). */
export const CheckInView = z.object({
  did: z.string(),
  handle: z.string().nullable(),
  displayName: z.string().nullable(),
  /** Their face (a data: URL from their profile, as the core read it); null when none is known. */
  avatar: z.string().nullable().default(null),
  checkedInAt: z.string(),
  /** The door laptop that checked them in, as its organizer named it; null when the record does not say. */
  device: z.string().nullable(),
  /** Checked in on this computer. */
  here: z.boolean(),
  walkIn: z.boolean(),
  /** Not yet on the host (queued in the outbox). */
  pending: z.boolean(),
  /** The queued check-in, for Undo while it is not sent. */
  outboxId: z.number().int().nullable(),
})

/** Someone the door can check in: a member, or anyone who answered the event. */
export const DoorPersonView = z.object({
  did: z.string(),
  handle: z.string().nullable(),
  displayName: z.string().nullable(),
  /** Their face, as above. */
  avatar: z.string().nullable().default(null),
  /** Answered "going" and has a place (rsvp-standing.ts rsvpPlace). */
  going: z.boolean(),
  /** Answered "going" and waits for a place. */
  waitlisted: z.boolean().default(false),
  /** Their place on the waitlist (1-based), when the host said it. */
  waitlistPosition: z.number().int().positive().nullable().default(null),
  /** Their door code (shared/door-code.ts), which their own Convene shows them. */
  code: z.string().nullable().default(null),
  member: z.boolean(),
})

/** Everything door mode needs for one event, from the cache only (it works with the network gone). */
export const DoorView = z.object({
  event: z.object({ rkey: z.string(), name: z.string(), startsAt: z.string() }),
  /** What this computer is called on the check-ins it makes. */
  device: z.string(),
  people: z.array(DoorPersonView),
  checkIns: z.array(CheckInView),
})

/** A member's attendance over the past events where attendance was taken. */
export const AttendanceHistoryView = z.object({
  /** Past events (at most the last `of` considered) with any check-in. */
  of: z.number().int(),
  came: z.number().int(),
})

export type CheckIn = z.output<typeof CheckInView>
export type DoorPerson = z.output<typeof DoorPersonView>
export type DoorData = z.output<typeof DoorView>
export type AttendanceHistory = z.output<typeof AttendanceHistoryView>
