import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup } from '../../../groups/access.js'
import { recordChange } from '../../../changes.js'
import { refuse } from '../../../errors.js'

/**
 * Withdraws the caller's own pending request. The update is conditional on the request
 * still being pending, so a withdrawal racing an admin's decision cannot undo it.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.cancelJoinRequest({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const group = await loadGroup(ctx, input.body.group)
      const caller = auth.credentials.did
      await ctx.db.transaction().execute(async (tx) => {
        const pending = await tx
          .updateTable('join_request')
          .set({ status: 'cancelled', decidedAt: new Date().toISOString(), decidedBy: caller })
          .where('groupDid', '=', group.did)
          .where('did', '=', caller)
          .where('status', '=', 'pending')
          .returning('id')
          .executeTakeFirst()
        if (!pending) throw refuse('RequestNotFound', 'You have no pending request to join this group')
        await recordChange(tx, group.did, 'joinRequest.cancelled', pending.id)
      })
      return { encoding: 'application/json', body: {} }
    },
  })
}
export default register
