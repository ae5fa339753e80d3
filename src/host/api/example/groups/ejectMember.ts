import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { eject } from '../../../membership/eject.js'
import { lastChangeIn, seqField } from '../../../changes.js'

/**
 * Removes a member. Needs `eject`, and every role the member holds must be assignable
 * through a role granting `eject`: an admin can remove members and moderators but not
 * an owner or another admin. The removal is kept in the group's moderation history.
 * With `ban`, the person is also kept out: their `requestJoin` and any invite for them
 * are refused until someone holding `eject` lifts the ban (`unbanMember`).
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.ejectMember({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { did, note, ban } = input.body
      const group = await loadGroup(ctx, input.body.group)
      const seq = await groupTransaction(ctx.db, group.did, async (tx) => {
        const viewer = await viewerOf(tx, group.did, auth.credentials.did)
        requireAction(viewer, 'eject')
        await eject(tx, group.did, viewer, did, { note, ban })
        return lastChangeIn(tx)
      })
      return { encoding: 'application/json', body: seqField(seq) }
    },
  })
}
export default register
