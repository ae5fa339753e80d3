import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf, type Viewer } from '../../../groups/access.js'
import { addMember } from '../../../groups/membership.js'
import { refuseIfAdmitteeBanned } from '../../../groups/bans.js'
import { recordChange } from '../../../changes.js'
import { refuse } from '../../../errors.js'
import type { HostDb } from '../../../db/index.js'

const DEFAULT_ROLES = ['member']

/**
 * The roles to admit with. Plain `member` is what admission means, so `admit` alone
 * gives it; anything more is a grant, and must be a role the caller could grant
 * anyway: one assignable through a role of theirs granting `role.assign` or `admit`.
 */
async function admissionRoles(db: HostDb, groupDid: string, viewer: Viewer, asked: string[] | undefined): Promise<string[]> {
  const roles = [...new Set(asked ?? DEFAULT_ROLES)]
  if (roles.length === 0) throw refuse('InvalidRequest', 'Give at least one role, or leave roles out to admit as a member')
  const known = new Set(
    (await db.selectFrom('role').select('name').where('groupDid', '=', groupDid).execute()).map((r) => r.name),
  )
  const unknown = roles.filter((r) => !known.has(r))
  if (unknown.length) throw refuse('InvalidRequest', `This group has no role ${unknown.map((r) => `"${r}"`).join(', ')}`)
  const grantable = new Set([...viewer.assignableVia('role.assign'), ...viewer.assignableVia('admit')])
  const beyond = roles.filter((r) => r !== 'member' && !grantable.has(r))
  if (beyond.length) {
    throw refuse('NotAssignable', `Your roles do not let you grant ${beyond.map((r) => `"${r}"`).join(', ')}`)
  }
  return roles
}

/**
 * Decides a pending request. The decision is a conditional update of a request that is
 * still pending, so of two admins deciding at once exactly one wins and the other gets
 * `RequestNotFound`, as does anyone deciding a request already denied or withdrawn.
 * A banned person is not admitted (`Forbidden`): the ban is lifted first (unbanMember).
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.admitMember({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { did, decision } = input.body
      const caller = auth.credentials.did
      const group = await loadGroup(ctx, input.body.group)
      await groupTransaction(ctx.db, group.did, async (tx) => {
        const viewer = await viewerOf(tx, group.did, caller)
        requireAction(viewer, 'admit')
        // Whatever is pending: a ban decides the person's request, and this holds even
        // for one left from before that rule.
        if (decision === 'admit') await refuseIfAdmitteeBanned(tx, group.did, did)
        const roles = decision === 'admit' ? await admissionRoles(tx, group.did, viewer, input.body.roles) : []
        const now = new Date().toISOString()
        const request = await tx
          .updateTable('join_request')
          .set({ status: decision === 'admit' ? 'admitted' : 'denied', decidedAt: now, decidedBy: caller })
          .where('groupDid', '=', group.did)
          .where('did', '=', did)
          .where('status', '=', 'pending')
          .returning('id')
          .executeTakeFirst()
        if (!request) throw refuse('RequestNotFound', `${did} has no pending request to join this group`)
        if (decision === 'deny') {
          await recordChange(tx, group.did, 'joinRequest.denied', request.id)
          return
        }
        await recordChange(tx, group.did, 'joinRequest.admitted', request.id)
        await addMember(tx, group.did, did, roles, now)
        // An invite for someone now admitted has done its job; left outstanding it would
        // let them skip approval should they ever leave and ask again.
        const invites = await tx
          .updateTable('invite')
          .set({ status: 'redeemed' })
          .where('groupDid', '=', group.did)
          .where('invitee', '=', did)
          .where('status', '=', 'outstanding')
          .returning('uri')
          .execute()
        for (const invite of invites) await recordChange(tx, group.did, 'invite.redeemed', invite.uri)
      })
      return { encoding: 'application/json', body: {} }
    },
  })
}
export default register
