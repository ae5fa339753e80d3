import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { revokeInvite } from '../../../membership/invites.js'
import { lastChangeIn, seqField } from '../../../changes.js'

/**
 * Withdraws the outstanding invite for `invitee`; needs `invite`. A revoked invite no
 * longer redeems; one the invitee has just redeemed answers `InviteNotFound`.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.revokeInvite({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const group = await loadGroup(ctx, input.body.group)
      const seq = await ctx.db.transaction().execute(async (tx) => {
        requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'invite')
        await revokeInvite(tx, group.did, input.body.invitee)
        return lastChangeIn(tx)
      })
      return { encoding: 'application/json', body: seqField(seq) }
    },
  })
}
export default register
