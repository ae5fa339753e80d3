import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { decideJoinRequest } from '../../../membership/admit.js'
import { lastChangeIn, seqField } from '../../../changes.js'

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
      const group = await loadGroup(ctx, input.body.group)
      const seq = await groupTransaction(ctx.db, group.did, async (tx) => {
        const viewer = await viewerOf(tx, group.did, auth.credentials.did)
        requireAction(viewer, 'admit')
        await decideJoinRequest(tx, group.did, viewer, did, decision, roles)
        return lastChangeIn(tx)
      })
      return { encoding: 'application/json', body: seqField(seq) }
    },
  })
}
export default register
