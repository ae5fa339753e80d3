import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { declineInvite } from '../../../membership/invites.js'
import { answerGroupWrite } from '../../group-write.js'

/**
 * The invitee turns down their own outstanding invite (issue 28): it no longer redeems,
 * and the group's invites lose it (`invite.declined`). Anyone may call it, for
 * themselves only: the invitee is the caller. Nothing outstanding is `InviteNotFound`.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.declineInvite({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => answerGroupWrite(ctx, input.body.group, (tx, group) => declineInvite(tx, group.did, auth.credentials.did)),
  })
}
export default register
