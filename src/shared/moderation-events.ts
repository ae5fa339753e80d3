/**
 * A moderator's acts on a reported subject (issue 17) and what each makes of it, one list
 * for the host (which takes and applies them: src/host/moderation/) and the app (the core
 * shows an act at once in the cached queue, the subject pane in its open copy, and both
 * keep it until the host's own answer replaces it).
 */
export const MODERATION_EVENTS = ['comment', 'acknowledge', 'escalate', 'resolve', 'takedown', 'reverseTakedown', 'assign', 'unassign', 'pin', 'unpin'] as const
export type ModerationEvent = (typeof MODERATION_EVENTS)[number]

/** How long a hold ("I'm on it") lasts unless taken again: the reference host's; its answer replaces this at the next read. */
export const HOLD_MS = 30 * 60_000

/** The status the host gives a subject after an act; the others leave it as it was. */
export const STATUS_AFTER: Partial<Record<ModerationEvent, 'escalated' | 'resolved'>> = { escalate: 'escalated', resolve: 'resolved', takedown: 'resolved' }

type Hold = { did: string; handle: string | null; endAt: string } | null
type Pin = { did: string; handle: string | null; at: string } | null
export interface SubjectState {
  status: string
  takenDown?: boolean
  assignedTo?: Hold
  pinned?: Pin
}

/**
 * A subject after an act, as the host will say: its status, whether a takedown is in
 * force, who has it (taken by `taker`, released, or ended by a decision), and whether it
 * is pinned to the top of the queue (by `taker`, unless it was already; a decision unpins).
 */
export function subjectAfter(s: SubjectState, event: ModerationEvent, taker: { did: string; handle: string | null } | null, now = Date.now()): Required<SubjectState> {
  const status = STATUS_AFTER[event] ?? s.status
  const takenDown = event === 'takedown' ? true : event === 'reverseTakedown' ? false : (s.takenDown ?? false)
  const assignedTo =
    event === 'assign' && taker ? { ...taker, endAt: new Date(now + HOLD_MS).toISOString() } : event === 'unassign' || STATUS_AFTER[event] === 'resolved' ? null : (s.assignedTo ?? null)
  const pinned =
    event === 'pin' ? (s.pinned ?? (taker ? { ...taker, at: new Date(now).toISOString() } : null)) : event === 'unpin' || STATUS_AFTER[event] === 'resolved' ? null : (s.pinned ?? null)
  return { status, takenDown, assignedTo, pinned }
}
