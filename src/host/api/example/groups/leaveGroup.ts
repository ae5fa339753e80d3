import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup } from '../../../groups/access.js'
import { ensureConfigurerRemains } from '../../../groups/assignment.js'
import { removeMember } from '../../../groups/membership.js'
import { recordChange } from '../../../changes.js'
import { refuse } from '../../../errors.js'

/**
 * The caller leaves, giving up every role. `LastConfigurer` when nobody else holds a
 * role able to configure the group: checked after the removal, inside its transaction
 * and under the group's lock, so the refusal rolls it back and two members leaving at
 * once cannot each count the other: a group is never left without a configurer.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.leaveGroup({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const caller = auth.credentials.did
      const group = await loadGroup(ctx, input.body.group)
      await groupTransaction(ctx.db, group.did, async (tx) => {
        const member = await tx.selectFrom('member').select('did').where('groupDid', '=', group.did).where('did', '=', caller).executeTakeFirst()
        if (!member) throw refuse('NotAMember', 'You are not a member of this group')
        await removeMember(tx, group.did, caller)
        await ensureConfigurerRemains(tx, group.did, 'You are the only member able to configure this group; give someone else that role before leaving')
        await recordChange(tx, group.did, 'member.left', caller)
      })
      return { encoding: 'application/json', body: {} }
    },
  })
}
export default register
