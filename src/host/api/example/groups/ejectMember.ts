import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { ensureConfigurerRemains, requireMember } from '../../../groups/assignment.js'
import { removeMember } from '../../../groups/membership.js'
import { recordModerationEvent } from '../../../moderation/subjects.js'
import { recordChange } from '../../../changes.js'
import { refuse } from '../../../errors.js'

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
      await ctx.db.transaction().execute(async (tx) => {
        const viewer = await viewerOf(tx, group.did, caller)
        requireAction(viewer, 'eject')
        await requireMember(tx, group.did, did)
        const held = await tx.selectFrom('member_role').select('role').where('groupDid', '=', group.did).where('did', '=', did).execute()
        const ejectable = viewer.assignableVia('eject')
        const beyond = held.map((r) => r.role).filter((r) => !ejectable.has(r))
        if (beyond.length) {
          throw refuse('NotAssignable', `Your roles do not let you eject someone holding ${beyond.map((r) => `"${r}"`).join(', ')}`)
        }
        await removeMember(tx, group.did, did)
        await ensureConfigurerRemains(tx, group.did)
        await recordModerationEvent(tx, { groupDid: group.did, subjectKey: did, kind: 'eject', data: { ...(note ? { note } : {}), ...(ban ? { ban: true } : {}) }, createdBy: caller })
        await recordChange(tx, group.did, 'member.ejected', did)
        if (ban) {
          await tx
            .insertInto('ban')
            .values({ groupDid: group.did, did, note: note ?? null, createdBy: caller, createdAt: new Date().toISOString() })
            .onConflict((oc) => oc.doNothing())
            .execute()
          await recordChange(tx, group.did, 'ban.created', did)
        }
      })
      return { encoding: 'application/json', body: {} }
    },
  })
}
export default register
