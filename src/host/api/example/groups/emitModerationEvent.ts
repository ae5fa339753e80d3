import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { parseSubject, recordModerationEvent, requireSubject, subjectViews } from '../../../moderation/subjects.js'
import { applyTakedown, parseAction, statusAfter } from '../../../moderation/actions.js'
import { recordChange } from '../../../changes.js'
import { refuse } from '../../../errors.js'

/**
 * Every moderator action on a reported subject, Ozone's way: one procedure, each event
 * kept in the subject's history with who and when (needs `mod.resolve`; taking down an
 * account, which ejects and bans, also needs `eject`). `updateSubject` still sets a
 * status directly, for older clients. Only reported subjects exist: anything else is
 * `SubjectNotFound`.
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

      const subject = await groupTransaction(ctx.db, group.did, async (tx) => {
        const viewer = await viewerOf(tx, group.did, caller)
        requireAction(viewer, 'mod.resolve')
        await requireSubject(tx, group.did, key)
        const ban = action === 'takedown' || action === 'reverseTakedown' ? await applyTakedown(tx, group.did, viewer, key, action, note) : false
        const status = statusAfter(action)
        await tx
          .updateTable('subject')
          .set({ ...(status ? { status } : {}), updatedAt: new Date().toISOString() })
          .where('groupDid', '=', group.did)
          .where('subjectKey', '=', key)
          .execute()
        await recordModerationEvent(tx, { groupDid: group.did, subjectKey: key, kind: action, data: { ...(note ? { note } : {}), ...(ban ? { ban: true } : {}) }, createdBy: caller })
        await recordChange(tx, group.did, 'subject.updated', key)
        const [view] = await subjectViews(tx, group.did, [await requireSubject(tx, group.did, key)], caller)
        return view!
      })
      return { encoding: 'application/json', body: { subject } }
    },
  })
}
export default register
