import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { requireAction, viewerOf } from '../../../groups/access.js'
import { parseStatus, parseSubject } from '../../../moderation/subjects.js'
import { setSubjectStatus } from '../../../moderation/events.js'
import { answerGroupWrite } from '../../group-write.js'

/**
 * Moves a reported subject between `open`, `escalated` and `resolved` (needs
 * `mod.resolve`). Only reported subjects exist: anything else is `SubjectNotFound`.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.updateSubject({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const caller = auth.credentials.did
      const { key } = parseSubject(input.body.subject)
      const status = parseStatus(input.body.status)
      return answerGroupWrite(ctx, input.body.group, async (tx, group) => {
        requireAction(await viewerOf(tx, group.did, caller), 'mod.resolve')
        await setSubjectStatus(tx, group.did, key, status, input.body.note, caller)
      })
    },
  })
}
export default register
