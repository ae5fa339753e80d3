import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup } from '../../../groups/access.js'
import { checkRoleAssignment, revokeRole } from '../../../groups/assignment.js'
import { lastChangeIn, seqField } from '../../../changes.js'

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
      const group = await loadGroup(ctx, input.body.group)
      const seq = await groupTransaction(ctx.db, group.did, async (tx) => {
        await checkRoleAssignment(tx, group.did, auth.credentials.did, did, role)
        await revokeRole(tx, group.did, did, role)
        return lastChangeIn(tx)
      })
      return { encoding: 'application/json', body: seqField(seq) }
    },
  })
}
export default register
