import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { recordChange } from '../../../changes.js'
import { refuse } from '../../../errors.js'

/**
 * Withdraws the outstanding invite for `invitee`; needs `invite`. A revoked invite no
 * longer redeems. Conditional on the invite still being outstanding, so revoking one
 * the invitee has just redeemed answers `InviteNotFound` and leaves the member be.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.revokeInvite({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { invitee } = input.body
      const group = await loadGroup(ctx, input.body.group)
      await ctx.db.transaction().execute(async (tx) => {
        requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'invite')
        const revoked = await tx
          .updateTable('invite')
          .set({ status: 'revoked' })
          .where('groupDid', '=', group.did)
          .where('invitee', '=', invitee)
          .where('status', '=', 'outstanding')
          .returning('uri')
          .executeTakeFirst()
        if (!revoked) throw refuse('InviteNotFound', `There is no outstanding invite for ${invitee} in this group`)
        await recordChange(tx, group.did, 'invite.revoked', revoked.uri)
      })
      return { encoding: 'application/json', body: {} }
    },
  })
}
export default register
