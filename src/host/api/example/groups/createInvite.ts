import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { invite, newInviteUri } from '../../../membership/invites.js'
import { refuseIfInviteeBanned } from '../../../membership/bans.js'
import { lastChangeIn, seqField } from '../../../changes.js'
import { withCapHeaders } from '../../../limits/cap-headers.js'
import { json } from '../../answers.js'

/**
 * Invites a person; needs `invite`. The invite stays outstanding until the invitee asks
 * to join (which redeems it under any join policy) or it is revoked. Inviting someone
 * with an invite outstanding answers that invite's address again rather than making a
 * second one (and no `seq`: nothing new was recorded). A banned person cannot be
 * invited until the ban is lifted.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.createInvite({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input, res }) => {
      const { invitee, message } = input.body
      const caller = auth.credentials.did
      const group = await loadGroup(ctx, input.body.group)
      // Checked before the DID lookup, so only inviters make the host go to the network.
      requireAction(await viewerOf(ctx.db, group.did, caller), 'invite')
      await refuseIfInviteeBanned(ctx.db, group.did, invitee)
      const fresh = await newInviteUri(async (did) => !!(await ctx.idResolver.did.resolve(did)), group.did, invitee)

      // Past the group's bound of invites waiting (membership/invites.ts): a 429 naming no time, since it lifts only as invites are answered or revoked.
      const { uri, seq } = await withCapHeaders(res, () =>
        groupTransaction(ctx.db, group.did, async (tx) => {
          requireAction(await viewerOf(tx, group.did, caller), 'invite')
          const uri = await invite(tx, group.did, invitee, fresh, caller, message ?? null)
          return { uri, seq: lastChangeIn(tx) }
        }),
      )
      return json({ uri, ...seqField(seq) })
    },
  })
}
export default register
