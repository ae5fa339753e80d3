import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { lastChangeIn, seqField } from '../../../changes.js'
import { groupSpaceAddress } from '../../../spaces/space.js'
import { deleteSpace } from '../../../spaces/space-admin.js'

/**
 * Deletes a space (needs `space.delete`): its index record, every record the host keeps
 * in it, and the space itself. Members' own records in it stay on their PDSes; the
 * host no longer counts them. Credentials granted for it stop working.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.deleteSpace({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const group = await loadGroup(ctx, input.body.group)
      const address = groupSpaceAddress(group.did, input.body.space)
      const seq = await ctx.db.transaction().execute(async (tx) => {
        requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'space.delete')
        await deleteSpace(tx, address)
        return lastChangeIn(tx)
      })
      return { encoding: 'application/json', body: seqField(seq) }
    },
  })
}
export default register
