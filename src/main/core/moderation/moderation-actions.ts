import { putItem, readItem } from '../cache/items.js'
import type { ActionSpec } from '../groups/organizer-actions.js'
import { viaHost } from '../groups/via-host.js'
import { ERROR_MESSAGES } from '../../../shared/errors.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { knownHandles } from '../people/list-handles.js'

type Subject = { did: string } | { uri: string; cid?: string }
export type ModerationEvent = 'comment' | 'acknowledge' | 'escalate' | 'resolve' | 'takedown' | 'reverseTakedown' | 'assign' | 'unassign'
export interface SubjectEventPayload {
  key: string
  subject: Subject
  event: ModerationEvent
  note?: string
  /** For assign: the account taking the subject (set by the core when queued, shown at once). */
  by?: string
}

/** How long a hold lasts unless taken again (the reference host's; its own answer replaces this at the next sync). */
const HOLD_MS = 30 * 60_000
export interface ReportPayload {
  subject: Subject
  reasonType: string
  reason?: string
}

const emit = viaHost('example.groups.emitModerationEvent', (group, p: SubjectEventPayload) => ({ group, subject: typedSubject(p.subject), event: p.event, ...(p.note ? { note: p.note } : {}) }))

type Hold = { did: string; handle: string | null; endAt: string } | null

/** Who has the subject after the event, as the host will say: taken, released, or ended by a decision. */
async function holdAfter(tx: Parameters<typeof readItem>[0], s: { assignedTo?: Hold }, p: SubjectEventPayload): Promise<Hold> {
  if (p.event === 'assign' && p.by) {
    const handle = (await knownHandles(tx, [p.by])).get(p.by) ?? null
    return { did: p.by, handle, endAt: new Date(Date.now() + HOLD_MS).toISOString() }
  }
  if (p.event === 'unassign' || STATUS_AFTER[p.event] === 'resolved') return null
  return s.assignedTo ?? null
}

/** The lexicon's union needs its member named. */
const typedSubject = (s: Subject) => ('did' in s ? { $type: 'example.groups.defs#subjectAccount', did: s.did } : { $type: 'example.groups.defs#subjectRecord', ...s })

/** What the host will make of the subject, shown at once in the queue (and kept until sent). */
const STATUS_AFTER: Partial<Record<ModerationEvent, string>> = { escalate: 'escalated', resolve: 'resolved', takedown: 'resolved' }

const LABELS: Record<ModerationEvent, string> = {
  comment: 'Comment on a report',
  acknowledge: 'Acknowledge a report',
  escalate: 'Escalate a report',
  resolve: 'Resolve a report',
  takedown: 'Take down a reported',
  reverseTakedown: 'Restore a taken-down',
  assign: 'Take a report (I’m on it)',
  unassign: 'Release a report',
}

/**
 * Moderators' acts and members' reports, through the outbox like every other change,
 * so they wait out a lost connection (issue 17). One host procedure carries every
 * moderator act (emitModerationEvent).
 */
export const MODERATION_ACTIONS: { 'subject.event': ActionSpec<'subject.event'>; 'report.create': ActionSpec<'report.create'> } = {
  'subject.event': {
    send: async (rt, g, p, key) => {
      try {
        await emit(rt, g, p, key)
      } catch (err) {
        // Released already (by someone else, or the hold lapsed): what was asked for holds.
        if (p.event === 'unassign' && err instanceof XrpcCallError && err.error === 'InvalidRequest') return
        throw err
      }
    },
    label: (p) => (p.event === 'takedown' || p.event === 'reverseTakedown' ? `${LABELS[p.event]} ${'did' in p.subject ? 'account' : 'post'}` : LABELS[p.event]),
    applyToCache: async (tx, g, p, id) => {
      const s = await readItem<{ status: string; takenDown?: boolean; assignedTo?: Hold }>(tx, g, 'subject', p.key)
      if (!s) return
      const status = STATUS_AFTER[p.event] ?? s.status
      const takenDown = p.event === 'takedown' ? true : p.event === 'reverseTakedown' ? false : (s.takenDown ?? false)
      await putItem(tx, g, 'subject', p.key, { ...s, status, takenDown, assignedTo: await holdAfter(tx, s, p) }, id)
    },
    conflicts: {
      AlreadyAssigned: 'Another moderator took this report first: the queue shows who has it. They, or anyone who may resolve it, can release it.',
      SubjectNotFound: ERROR_MESSAGES.SubjectNotFound!,
      NotAssignable: ERROR_MESSAGES.NotAssignable!,
      LastConfigurer: ERROR_MESSAGES.LastConfigurer!,
      InvalidRequest: 'The host did not accept this: it may already have been taken down or restored, or it is not in this group’s spaces (only those can be taken down).',
    },
    // A takedown or restore whose answer was lost is refused when sent again; the
    // subject's state says whether the first one took effect.
    alreadyApplied: async (rt, g, p) => {
      if (p.event !== 'takedown' && p.event !== 'reverseTakedown') return false
      const host = await rt.hostOf(g)
      const page = await host.query('example.groups.getSubject', { group: g, subject: p.key, limit: 1 })
      return (page.subject.takenDown ?? false) === (p.event === 'takedown')
    },
  },
  'report.create': {

    // The host takes a report once per key and reporter: a replay after a lost answer
    // (the app died mid-send) is the same report, not a second one.
    send: viaHost('example.groups.createReport', (group, p: ReportPayload, key) => ({ group, subject: typedSubject(p.subject), reasonType: p.reasonType, ...(p.reason ? { reason: p.reason } : {}), idempotencyKey: key })),
    label: () => 'Report to the moderators',
    // Members do not see the queue: nothing to show until moderators act.
    applyToCache: async () => {},
    conflicts: { Forbidden: 'Only members of this group can report to its moderators, and only what they can see in it.' },
  },
}
