import type { RegisterMethod } from '../../registrar.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup } from '../../../groups/access.js'
import { leave } from '../../../membership/members.js'
import { lastChangeIn, seqField } from '../../../changes.js'

/**
 * The caller leaves, giving up every role: `NotAMember` if they are not one,
 * `LastConfigurer` when nobody else could configure the group (membership/members.ts).
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.leaveGroup({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const group = await loadGroup(ctx, input.body.group)
      const seq = await groupTransaction(ctx.db, group.did, async (tx) => {
        await leave(tx, group.did, auth.credentials.did)
        return lastChangeIn(tx)
      })
      return { encoding: 'application/json', body: seqField(seq) }
    },
  })
}
export default register
