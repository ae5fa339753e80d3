import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup } from '../../../groups/access.js'
import { checkRoleAssignment, grantRole } from '../../../groups/assignment.js'
import { lastChangeIn, seqField } from '../../../changes.js'

/**
 * Gives a member a role the caller may assign through `role.assign`. Granting a role the
 * member already holds changes nothing and succeeds (without a `seq`).
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.grantRole({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { did, role } = input.body
      const group = await loadGroup(ctx, input.body.group)
      const seq = await groupTransaction(ctx.db, group.did, async (tx) => {
        await checkRoleAssignment(tx, group.did, auth.credentials.did, did, role)
        await grantRole(tx, group.did, did, role)
        return lastChangeIn(tx)
      })
      return { encoding: 'application/json', body: seqField(seq) }
    },
  })
}
export default register
