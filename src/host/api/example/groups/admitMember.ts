import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { requireAction, viewerOf } from '../../../groups/access.js'
import { decideJoinRequest } from '../../../membership/admit.js'
import { answerGroupWrite } from '../../group-write.js'

/**
 * Decides a pending request; needs `admit` (membership/admit.ts has the rules). Of two
 * admins deciding at once exactly one wins and the other gets `RequestNotFound`, as does
 * anyone deciding a request already denied or withdrawn. A banned person is not admitted
 * (`Forbidden`): the ban is lifted first (unbanMember).
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.admitMember({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { did, decision, roles } = input.body
      return answerGroupWrite(ctx, input.body.group, async (tx, group) => {
        const viewer = await viewerOf(tx, group.did, auth.credentials.did)
        requireAction(viewer, 'admit')
        await decideJoinRequest(tx, group.did, viewer, did, decision, roles)
      })
    },
  })
}
export default register
