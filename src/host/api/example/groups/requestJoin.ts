import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup } from '../../../groups/access.js'
import { addMember } from '../../../groups/membership.js'
import { refuseIfCallerBanned } from '../../../groups/bans.js'
import { openJoinRequest } from '../../../groups/new-join-request.js'
import { recordChange } from '../../../changes.js'
import { refuse } from '../../../errors.js'
import { withCapHeaders } from '../../../limits/cap-headers.js'

/**
 * Asks to join. An outstanding invite for the caller is redeemed under any policy and
 * admits; otherwise `open` admits, `approval` leaves a pending request (asking again
 * while one is pending returns `pending` without a second request), `invite` refuses.
 * A banned person is refused under every policy, invite or not (`Forbidden`). One person
 * may make only so many requests to a group a day (groups/new-join-request.ts): past
 * that, 429 `RateLimitExceeded`, saying when they may ask again (in words and in
 * `Retry-After`).
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.requestJoin({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input, res }) => {
      const { group: groupDid, message } = input.body
      const caller = auth.credentials.did
      const group = await loadGroup(ctx, groupDid)
      const now = new Date().toISOString()

      const status = await withCapHeaders(res, () => groupTransaction(ctx.db, group.did, async (tx) => {
        const member = await tx.selectFrom('member').select('did').where('groupDid', '=', group.did).where('did', '=', caller).executeTakeFirst()
        if (member) throw refuse('AlreadyMember', 'You are already a member of this group')
        await refuseIfCallerBanned(tx, group.did, caller)

        const invite = await tx
          .selectFrom('invite')
          .select(['id', 'uri'])
          .where('groupDid', '=', group.did)
          .where('invitee', '=', caller)
          .where('status', '=', 'outstanding')
          .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', now)]))
          .orderBy('createdAt')
          .executeTakeFirst()
        if (invite) {
          await tx.updateTable('invite').set({ status: 'redeemed' }).where('id', '=', invite.id).execute()
          // A request made earlier is now moot: the invite decided it.
          await tx.updateTable('join_request').set({ status: 'admitted', decidedAt: now, invite: invite.uri }).where('groupDid', '=', group.did).where('did', '=', caller).where('status', '=', 'pending').execute()
          await addMember(tx, group.did, caller, ['member'], now)
          await recordChange(tx, group.did, 'invite.redeemed', invite.uri)
          return 'admitted' as const
        }

        if (group.joinPolicy === 'invite') {
          throw refuse('InviteRequired', 'This group admits people by invitation only, and you have no invite')
        }
        if (group.joinPolicy === 'open') {
          // A request made while the group still needed approval is decided now; left
          // pending, an admin's later decision on it would meet a member and fail.
          const earlier = await tx
            .updateTable('join_request')
            .set({ status: 'admitted', decidedAt: now })
            .where('groupDid', '=', group.did)
            .where('did', '=', caller)
            .where('status', '=', 'pending')
            .returning('id')
            .execute()
          for (const request of earlier) await recordChange(tx, group.did, 'joinRequest.admitted', request.id)
          await addMember(tx, group.did, caller, ['member'], now)
          return 'admitted' as const
        }
        const pending = await tx.selectFrom('join_request').select('id').where('groupDid', '=', group.did).where('did', '=', caller).where('status', '=', 'pending').executeTakeFirst()
        if (!pending) await openJoinRequest(tx, group.did, caller, message ?? null, now)
        return 'pending' as const
      }))
      return { encoding: 'application/json', body: { status } }
    },
  })
}
export default register
