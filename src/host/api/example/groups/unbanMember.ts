import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { liftBan } from '../../../membership/bans.js'
import { lastChangeIn, seqField } from '../../../changes.js'

/**
 * Lifts a ban made by `ejectMember` with `ban`, or by taking the account down; needs
 * `eject`, as banning does (`NotBanned` if there is none). The person may then ask to
 * join (an open group admits them again) or be invited.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.unbanMember({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const group = await loadGroup(ctx, input.body.group)
      const seq = await groupTransaction(ctx.db, group.did, async (tx) => {
        requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'eject')
        await liftBan(tx, group.did, input.body.did, auth.credentials.did)
        return lastChangeIn(tx)
      })
      return { encoding: 'application/json', body: seqField(seq) }
    },
  })
}
export default register
