import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { leave } from '../../../membership/members.js'
import { answerGroupWrite } from '../../group-write.js'

/**
 * The caller leaves, giving up every role: `NotAMember` if they are not one,
 * `LastConfigurer` when nobody else could configure the group (membership/members.ts).
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.leaveGroup({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      return answerGroupWrite(ctx, input.body.group, async (tx, group) => {
        await leave(tx, group.did, auth.credentials.did)
      })
    },
  })
}
export default register
