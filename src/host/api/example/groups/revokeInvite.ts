import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { requireAction, viewerOf } from '../../../groups/access.js'
import { revokeInvite } from '../../../membership/invites.js'
import { answerGroupWrite } from '../../group-write.js'

/**
 * Withdraws the outstanding invite for `invitee`; needs `invite`. A revoked invite no
 * longer redeems; one the invitee has just redeemed answers `InviteNotFound`.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.revokeInvite({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      return answerGroupWrite(ctx, input.body.group, async (tx, group) => {
        requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'invite')
        await revokeInvite(tx, group.did, input.body.invitee)
      })
    },
  })
}
export default register
