import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { requireMember } from '../../../groups/assignment.js'
import { banFromGroup, ejectMemberAs } from '../../../groups/eject.js'
import { recordModerationEvent } from '../../../moderation/subjects.js'

/**
 * Removes a member. Needs `eject`, and every role the member holds must be assignable
 * through a role granting `eject`: an admin can remove members and moderators but not
 * an owner or another admin. The removal is kept in the group's moderation history.
 * With `ban`, the person is also kept out: their `requestJoin` and any invite for them
 * are refused until someone holding `eject` lifts the ban (`unbanMember`). Without it,
 * an open group would let them straight back in.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.ejectMember({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { did, note, ban } = input.body
      const caller = auth.credentials.did
      const group = await loadGroup(ctx, input.body.group)
      await groupTransaction(ctx.db, group.did, async (tx) => {
        const viewer = await viewerOf(tx, group.did, caller)
        requireAction(viewer, 'eject')
        await requireMember(tx, group.did, did)
        await ejectMemberAs(tx, group.did, viewer, did)
        await recordModerationEvent(tx, { groupDid: group.did, subjectKey: did, kind: 'eject', data: { ...(note ? { note } : {}), ...(ban ? { ban: true } : {}) }, createdBy: caller })
        if (ban) await banFromGroup(tx, group.did, did, note ?? null, caller)
      })
      return { encoding: 'application/json', body: {} }
    },
  })
}
export default register
