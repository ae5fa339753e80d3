import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { requireAction, viewerOf } from '../../../groups/access.js'
import { liftBan } from '../../../membership/bans.js'
import { answerGroupWrite } from '../../group-write.js'

/**
 * Lifts a ban made by `ejectMember` with `ban`, or by taking the account down; needs
 * `eject`, as banning does (`NotBanned` if there is none). The person may then ask to
 * join (an open group admits them again) or be invited.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.unbanMember({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      return answerGroupWrite(ctx, input.body.group, async (tx, group) => {
        requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'eject')
        await liftBan(tx, group.did, input.body.did, auth.credentials.did)
      })
    },
  })
}
export default register
