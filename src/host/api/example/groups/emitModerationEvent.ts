import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { parseSubject } from '../../../moderation/subjects.js'
import { parseAction } from '../../../moderation/actions.js'
import { moderate } from '../../../moderation/events.js'
import { lastChangeIn, seqField } from '../../../changes.js'
import { refuse } from '../../../errors.js'
import { json } from '../../answers.js'

/**
 * Every moderator action on a reported subject, Ozone's way: one procedure, each event
 * kept in the subject's history with who and when (needs `mod.resolve`; taking down an
 * account, which ejects and bans, also needs `eject`). `updateSubject` still sets a
 * status directly, for older clients. Only reported subjects exist: anything else is
 * `SubjectNotFound`. `assign` and `unassign` are Ozone's moderator assignment ("I'm on
 * it"): every moderator's queue shows who has a subject (moderation/assignment.ts).
 * An event sent again with the same `idempotencyKey` by the same moderator (a retry
 * after a lost answer, a bulk replayed after the host died) changes nothing.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.emitModerationEvent({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { key } = parseSubject(input.body.subject)
      const action = parseAction(input.body.event)
      const note = input.body.note?.trim() || undefined
      if (action === 'comment' && !note) throw refuse('InvalidRequest', 'A comment needs words (note)')
      const group = await loadGroup(ctx, input.body.group)
      const { subject, seq } = await groupTransaction(ctx.db, group.did, async (tx) => {
        const viewer = await viewerOf(tx, group.did, auth.credentials.did)
        requireAction(viewer, 'mod.resolve')
        const subject = await moderate(tx, group.did, viewer, key, action, note, input.body.idempotencyKey)
        return { subject, seq: lastChangeIn(tx) }
      })
      return json({ subject, ...seqField(seq) })
    },
  })
}
export default register
