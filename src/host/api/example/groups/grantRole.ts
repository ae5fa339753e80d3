import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup } from '../../../groups/access.js'
import { checkRoleAssignment } from '../../../groups/assignment.js'
import { recordChange } from '../../../changes.js'

/**
 * Gives a member a role the caller may assign through `role.assign`. Granting a role the
 * member already holds changes nothing and succeeds.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.grantRole({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { did, role } = input.body
      const group = await loadGroup(ctx, input.body.group)
      await groupTransaction(ctx.db, group.did, async (tx) => {
        await checkRoleAssignment(tx, group.did, auth.credentials.did, did, role)
        const res = await tx
          .insertInto('member_role')
          .values({ groupDid: group.did, did, role })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst()
        if (Number(res.numInsertedOrUpdatedRows ?? 0n) > 0) await recordChange(tx, group.did, 'member.roleGranted', did)
      })
      return { encoding: 'application/json', body: {} }
    },
  })
}
export default register
