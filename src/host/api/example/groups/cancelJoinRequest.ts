import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup } from '../../../groups/access.js'
import { cancelJoinRequest } from '../../../membership/join-requests.js'
import { lastChangeIn, seqField } from '../../../changes.js'

/**
 * Withdraws the caller's own pending request (`RequestNotFound` if none is pending); a
 * withdrawal racing an admin's decision cannot undo it.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.cancelJoinRequest({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const group = await loadGroup(ctx, input.body.group)
      const seq = await groupTransaction(ctx.db, group.did, async (tx) => {
        await cancelJoinRequest(tx, group.did, auth.credentials.did)
        return lastChangeIn(tx)
      })
      return { encoding: 'application/json', body: seqField(seq) }
    },
  })
}
export default register
