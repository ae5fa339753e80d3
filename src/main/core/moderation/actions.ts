import { isValidDid } from '@atproto/syntax'
import { ERROR_MESSAGES } from '@shared/errors.js'
import { subjectAfter, type ModerationEvent, type SubjectState } from '@shared/moderation-events.js'
import { putItem, readItem } from '../cache/items.js'
import { knownHandles } from '../people/list-handles.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { subjectId, typedSubject, type ActionTable } from '../actions/action-spec.js'
import { viaHost } from '../actions/via-host.js'

const LABELS: Record<ModerationEvent, string> = {
  comment: 'Comment on a report',
  acknowledge: 'Acknowledge a report',
  escalate: 'Escalate a report',
  resolve: 'Resolve a report',
  takedown: 'Take down a reported',
  reverseTakedown: 'Restore a taken-down',
  assign: 'Take a report (I’m on it)',
  unassign: 'Release a report',
  pin: 'Pin a report to the top of the queue',
  unpin: 'Unpin a report',
}

/**
 * The row's idempotency key goes with each event: an event replayed after its answer was
 * lost (the host died mid-way through a bulk resolve) is recorded once, not twice.
 */
const emit = viaHost('example.groups.emitModerationEvent', (group, p: { subject: Parameters<typeof typedSubject>[0]; event: ModerationEvent; note?: string }, key: string) => ({
  group,
  subject: typedSubject(p.subject),
  event: p.event,
  ...(p.note ? { note: p.note } : {}),
  idempotencyKey: key,
}))

/**
 * Moderators' acts and members' reports, through the outbox like every other change,
 * so they wait out a lost connection (issue 17). One host procedure carries every
 * moderator act (emitModerationEvent).
 */
export const MODERATION_ACTIONS: ActionTable<'subject.update' | 'subject.event' | 'report.create'> = {
  'subject.update': {
    undo: 'reread',
    label: (p) => `Mark a report ${p.status}`,
    applyToCache: async (tx, g, p, id) => {
      const s = await readItem<{ status: string }>(tx, g, 'subject', p.key)
      if (s) await putItem(tx, g, 'subject', p.key, { ...s, status: p.status }, id)
    },
    send: viaHost('example.groups.updateSubject', (group, p) => ({ group, subject: typedSubject(p.subject), status: p.status, ...(p.note ? { note: p.note } : {}) })),
    conflicts: { SubjectNotFound: ERROR_MESSAGES.SubjectNotFound! },
    scope: { ability: 'mod.resolve', methods: ['example.groups.updateSubject'] },
    // Now used to reopen a resolved subject, which the cache (the queue only) does not
    // hold, so there is no cached effect: its change is read back like anyone else's.
    changes: [],
    list: 'subjects',
    confirmed: 'keep',
    identifiers: (p) => [p.key, subjectId(p.subject)],
  },
  'subject.event': {
    undo: 'reread',
    // "I'm on it": the account acting takes the subject, shown as having it at once.
    // Pinning likewise names who pinned it.
    chooseWhenQueued: (p, { accountDid }) => ((p.event === 'assign' || p.event === 'pin') && isValidDid(accountDid) ? { by: accountDid } : {}),
    label: (p) => (p.event === 'takedown' || p.event === 'reverseTakedown' ? `${LABELS[p.event]} ${'did' in p.subject ? 'account' : 'post'}` : LABELS[p.event]),
    applyToCache: async (tx, g, p, id) => {
      const s = await readItem<SubjectState>(tx, g, 'subject', p.key)
      if (!s) return
      const taker = p.by ? { did: p.by, handle: (await knownHandles(tx, [p.by])).get(p.by) ?? null } : null
      await putItem(tx, g, 'subject', p.key, { ...s, ...subjectAfter(s, p.event, taker) }, id)
    },
    send: async (rt, g, p, key) => {
      try {
        return await emit(rt, g, p, key)
      } catch (err) {
        // Released already (by someone else, or the hold lapsed): what was asked for holds.
        // Likewise unpinned already.
        if ((p.event === 'unassign' || p.event === 'unpin') && err instanceof XrpcCallError && err.error === 'InvalidRequest') return {}
        throw err
      }
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
    scope: { ability: 'mod.resolve', methods: ['example.groups.emitModerationEvent'] },
    // A takedown's effect on what members are served (record.takenDown/restored, an
    // ejection) is read back from the host like anyone else's change.
    changes: ['subject.updated'],
    readBack: (p) => p.event === 'takedown' || p.event === 'reverseTakedown',
    list: 'subjects',
    confirmed: 'keep',
    identifiers: (p) => [p.key, subjectId(p.subject)],
  },
  'report.create': {
    undo: 'none',
    label: () => 'Report to the moderators',
    // Members do not see the queue: nothing to show until moderators act.
    applyToCache: async () => {},
    // The host takes a report once per key and reporter: a replay after a lost answer
    // (the app died mid-send) is the same report, not a second one.
    send: viaHost('example.groups.createReport', (group, p, key) => ({ group, subject: typedSubject(p.subject), reasonType: p.reasonType, ...(p.reason ? { reason: p.reason } : {}), idempotencyKey: key })),
    conflicts: { Forbidden: 'Only members of this group can report to its moderators, and only what they can see in it.' },
    scope: { methods: ['example.groups.createReport'] },
    // A report has no cached effect (a reporter need not see the queue), so its change is
    // read back like anyone else's: a moderator who reports sees the subject in the queue.
    changes: [],
    list: 'subjects',
    confirmed: 'keep',
    identifiers: (p) => [subjectId(p.subject)],
  },
}
