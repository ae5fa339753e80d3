import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { newInviteUri } from '../../../groups/invites.js'
import { refuseIfInviteeBanned } from '../../../groups/bans.js'
import { recordChange } from '../../../changes.js'
import { refuse } from '../../../errors.js'

/**
 * Invites a person; needs `invite`. The invite stays outstanding until the invitee asks
 * to join (which redeems it under any join policy) or it is revoked. Inviting someone
 * with an invite outstanding answers that invite's address again rather than making a
 * second one. A banned person cannot be invited until the ban is lifted.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.createInvite({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { invitee, message } = input.body
      const caller = auth.credentials.did
      const group = await loadGroup(ctx, input.body.group)
      // Checked before the DID lookup, so only inviters make the host go to the network.
      requireAction(await viewerOf(ctx.db, group.did, caller), 'invite')
      await refuseIfInviteeBanned(ctx.db, group.did, invitee)
      // Outside the transaction: a network lookup must not hold the database.
      const fresh = await newInviteUri(ctx, group.did, invitee)

      const uri = await groupTransaction(ctx.db, group.did, async (tx) => {
        requireAction(await viewerOf(tx, group.did, caller), 'invite')
        const member = await tx.selectFrom('member').select('did').where('groupDid', '=', group.did).where('did', '=', invitee).executeTakeFirst()
        if (member) throw refuse('AlreadyMember', `${invitee} is already a member of this group`)
        await refuseIfInviteeBanned(tx, group.did, invitee)
        const existing = await tx
          .selectFrom('invite')
          .select('uri')
          .where('groupDid', '=', group.did)
          .where('invitee', '=', invitee)
          .where('status', '=', 'outstanding')
          .executeTakeFirst()
        if (existing) return existing.uri
        await tx
          .insertInto('invite')
          .values({
            uri: fresh,
            groupDid: group.did,
            invitee,
            message: message ?? null,
            createdBy: caller,
            createdAt: new Date().toISOString(),
            expiresAt: null,
            status: 'outstanding',
          })
          .execute()
        await recordChange(tx, group.did, 'invite.created', fresh)
        return fresh
      })
      return { encoding: 'application/json', body: { uri } }
    },
  })
}
export default register
