import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { checkRoleAssignment, grantRole } from '../../../groups/assignment.js'
import { answerGroupWrite } from '../../group-write.js'

/**
 * Gives a member a role the caller may assign through `role.assign`. Granting a role the
 * member already holds changes nothing and succeeds (without a `seq`).
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.grantRole({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { did, role } = input.body
      return answerGroupWrite(ctx, input.body.group, async (tx, group) => {
        await checkRoleAssignment(tx, group.did, auth.credentials.did, did, role)
        await grantRole(tx, group.did, did, role)
      })
    },
  })
}
export default register
