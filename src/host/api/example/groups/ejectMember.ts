import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { requireAction, viewerOf } from '../../../groups/access.js'
import { eject } from '../../../membership/eject.js'
import { answerGroupWrite } from '../../group-write.js'

/**
 * Removes a member. Needs `eject`, and every role the member holds must be assignable
 * through a role granting `eject`: an admin can remove members and moderators but not
 * an owner or another admin. The removal is kept in the group's moderation history.
 * With `ban`, the person is also kept out: their `requestJoin` and any invite for them
 * are refused until someone holding `eject` lifts the ban (`unbanMember`).
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.ejectMember({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { did, note, ban } = input.body
      return answerGroupWrite(ctx, input.body.group, async (tx, group) => {
        const viewer = await viewerOf(tx, group.did, auth.credentials.did)
        requireAction(viewer, 'eject')
        await eject(tx, group.did, viewer, did, { note, ban })
      })
    },
  })
}
export default register
