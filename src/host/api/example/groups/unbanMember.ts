import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { recordChange } from '../../../changes.js'
import { refuse } from '../../../errors.js'
import { recordModerationEvent } from '../../../moderation/subjects.js'

/**
 * Lifts a ban made by `ejectMember` with `ban`, or by taking the account down; needs
 * `eject`, as banning does. The person may then ask to join (an open group admits them
 * again) or be invited. A takedown of the account ends with its ban, and its history
 * says so, or moderators would go on reading "banned" about someone who is not.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.unbanMember({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { did } = input.body
      const group = await loadGroup(ctx, input.body.group)
      await groupTransaction(ctx.db, group.did, async (tx) => {
        requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'eject')
        const lifted = await tx.deleteFrom('ban').where('groupDid', '=', group.did).where('did', '=', did).executeTakeFirst()
        if (!lifted.numDeletedRows) throw refuse('NotBanned', `${did} is not banned from this group`)
        await recordChange(tx, group.did, 'ban.lifted', did)
        const takedown = await tx.deleteFrom('takedown').where('groupDid', '=', group.did).where('subjectKey', '=', did).executeTakeFirst()
        if (Number(takedown.numDeletedRows) > 0) {
          await recordModerationEvent(tx, { groupDid: group.did, subjectKey: did, kind: 'reverseTakedown', data: { note: 'The ban was lifted' }, createdBy: auth.credentials.did })
          await recordChange(tx, group.did, 'subject.updated', did)
        }
      })
      return { encoding: 'application/json', body: {} }
    },
  })
}
export default register
