import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { checkRoleAssignment, revokeRole } from '../../../groups/assignment.js'
import { answerGroupWrite } from '../../group-write.js'

/**
 * Takes a role the caller may assign through `role.assign` from a member (the caller
 * included). Revoking a role the member does not hold changes nothing and succeeds.
 * `LastConfigurer` if nobody would be left holding `group.configure`.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.revokeRole({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { did, role } = input.body
      return answerGroupWrite(ctx, input.body.group, async (tx, group) => {
        await checkRoleAssignment(tx, group.did, auth.credentials.did, did, role)
        await revokeRole(tx, group.did, did, role)
      })
    },
  })
}
export default register
