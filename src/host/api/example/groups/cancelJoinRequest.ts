import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { cancelJoinRequest } from '../../../membership/join-requests.js'
import { answerGroupWrite } from '../../group-write.js'

/**
 * Withdraws the caller's own pending request (`RequestNotFound` if none is pending); a
 * withdrawal racing an admin's decision cannot undo it.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.cancelJoinRequest({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      return answerGroupWrite(ctx, input.body.group, async (tx, group) => {
        await cancelJoinRequest(tx, group.did, auth.credentials.did)
      })
    },
  })
}
export default register
