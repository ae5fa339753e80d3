import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { parseStatus, parseSubject, recordModerationEvent, requireSubject } from '../../../moderation/subjects.js'
import { releaseSubject } from '../../../moderation/assignment.js'
import { recordChange } from '../../../changes.js'
import { refuse } from '../../../errors.js'

/**
 * Moves a reported subject between `open`, `escalated` and `resolved` (needs
 * `mod.resolve`). Only reported subjects exist: anything else is `SubjectNotFound`.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.updateSubject({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { note } = input.body
      const caller = auth.credentials.did
      const { key } = parseSubject(input.body.subject)
      const status = parseStatus(input.body.status)
      const group = await loadGroup(ctx, input.body.group)

      await ctx.db.transaction().execute(async (tx) => {
        requireAction(await viewerOf(tx, group.did, caller), 'mod.resolve')
        const res = await tx
          .updateTable('subject')
          .set({ status, updatedAt: new Date().toISOString() })
          .where('groupDid', '=', group.did)
          .where('subjectKey', '=', key)
          .executeTakeFirst()
        if (Number(res.numUpdatedRows) === 0) throw refuse('SubjectNotFound', 'Nobody has reported that to this group')
        // A decision ends any moderator's hold on the subject, as resolving through emitModerationEvent does.
        if (status === 'resolved') await releaseSubject(tx, await requireSubject(tx, group.did, key))
        await recordModerationEvent(tx, { groupDid: group.did, subjectKey: key, kind: 'status', data: { status, ...(note ? { note } : {}) }, createdBy: caller })
        await recordChange(tx, group.did, 'subject.updated', key)
      })
      return { encoding: 'application/json', body: {} }
    },
  })
}
export default register
