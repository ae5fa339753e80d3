import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup } from '../../../groups/access.js'
import { checkRoleAssignment, ensureConfigurerRemains } from '../../../groups/assignment.js'
import { recordChange } from '../../../changes.js'

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
      await groupTransaction(ctx.db, group.did, async (tx) => {
        await checkRoleAssignment(tx, group.did, auth.credentials.did, did, role)
        const res = await tx
          .deleteFrom('member_role')
          .where('groupDid', '=', group.did)
          .where('did', '=', did)
          .where('role', '=', role)
          .executeTakeFirst()
        if (Number(res.numDeletedRows) === 0) return
        await ensureConfigurerRemains(tx, group.did)
        await recordChange(tx, group.did, 'member.roleRevoked', did)
      })
      return { encoding: 'application/json', body: {} }
    },
  })
}
export default register
