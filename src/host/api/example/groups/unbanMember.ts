import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { recordChange } from '../../../changes.js'
import { refuse } from '../../../errors.js'

/**
 * Lifts a ban made by `ejectMember` with `ban`; needs `eject`, as banning does. The
 * person may then ask to join (an open group admits them again) or be invited.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.unbanMember({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { did } = input.body
      const group = await loadGroup(ctx, input.body.group)
      await ctx.db.transaction().execute(async (tx) => {
        requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'eject')
        const lifted = await tx.deleteFrom('ban').where('groupDid', '=', group.did).where('did', '=', did).executeTakeFirst()
        if (!lifted.numDeletedRows) throw refuse('NotBanned', `${did} is not banned from this group`)
        await recordChange(tx, group.did, 'ban.lifted', did)
      })
      return { encoding: 'application/json', body: {} }
    },
  })
}
export default register
