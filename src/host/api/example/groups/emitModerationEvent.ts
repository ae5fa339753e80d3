import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { parseSubject, recordModerationEvent, requireSubject, subjectViews } from '../../../moderation/subjects.js'
import { applyTakedown, parseAction, statusAfter, type ModerationAction } from '../../../moderation/actions.js'
import { assignSubject, releaseSubject } from '../../../moderation/assignment.js'
import type { SubjectTable } from '../../../db/schema.js'
import { recordChange } from '../../../changes.js'
import { refuse } from '../../../errors.js'

/**
 * Every moderator action on a reported subject, Ozone's way: one procedure, each event
 * kept in the subject's history with who and when (needs `mod.resolve`; taking down an
 * account, which ejects and bans, also needs `eject`). `updateSubject` still sets a
 * status directly, for older clients. Only reported subjects exist: anything else is
 * `SubjectNotFound`. `assign` and `unassign` are Ozone's moderator assignment ("I'm on
 * it"): every moderator's queue shows who has a subject (moderation/assignment.ts).
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.emitModerationEvent({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const caller = auth.credentials.did
      const { key } = parseSubject(input.body.subject)
      const action = parseAction(input.body.event)
      const note = input.body.note?.trim() || undefined
      if (action === 'comment' && !note) throw refuse('InvalidRequest', 'A comment needs words (note)')
      const group = await loadGroup(ctx, input.body.group)

      const subject = await ctx.db.transaction().execute(async (tx) => {
        const viewer = await viewerOf(tx, group.did, caller)
        requireAction(viewer, 'mod.resolve')
        const row = await requireSubject(tx, group.did, key)
        const ban = action === 'takedown' || action === 'reverseTakedown' ? await applyTakedown(tx, group.did, viewer, key, action, note) : false
        const held = await holdAfter(tx, row, action, caller)
        const status = statusAfter(action)
        await tx
          .updateTable('subject')
          .set({ ...(status ? { status } : {}), updatedAt: new Date().toISOString() })
          .where('groupDid', '=', group.did)
          .where('subjectKey', '=', key)
          .execute()
        await recordModerationEvent(tx, {
          groupDid: group.did,
          subjectKey: key,
          kind: action,
          data: { ...(note ? { note } : {}), ...(ban ? { ban: true } : {}), ...held },
          createdBy: caller,
        })
        await recordChange(tx, group.did, 'subject.updated', key)
        const [view] = await subjectViews(tx, group.did, [await requireSubject(tx, group.did, key)], caller)
        return view!
      })
      return { encoding: 'application/json', body: { subject } }
    },
  })
}
/**
 * What an event does to a moderator's hold on the subject (moderation/assignment.ts):
 * `assign` takes it, `unassign` releases it, and a decision (resolve, takedown) ends it.
 * Returns what the history entry records of it.
 */
async function holdAfter(tx: Parameters<typeof assignSubject>[0], row: SubjectTable, action: ModerationAction, caller: string): Promise<{ assignedTo?: string; endAt?: string }> {
  if (action === 'assign') {
    const { did, endAt } = await assignSubject(tx, row, caller)
    return { assignedTo: did, endAt }
  }
  if (action === 'unassign') {
    const released = await releaseSubject(tx, row)
    if (!released) throw refuse('InvalidRequest', 'Nobody has taken this subject')
    return { assignedTo: released }
  }
  if (statusAfter(action) === 'resolved') await releaseSubject(tx, row)
  return {}
}
export default register
