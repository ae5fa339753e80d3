import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { lastChangeIn, seqField } from '../../../changes.js'
import { groupSpaceAddress } from '../../../spaces/space.js'
import { updateSpace } from '../../../spaces/space-admin.js'

/**
 * Changes a space's name or access record (needs `space.configure`); fields left out
 * stay. The index record follows. New `readableBy` and `credentialScopes` apply at once,
 * to credentials already granted too: a group write is checked against the access
 * record as it is when the write arrives.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.updateSpace({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const group = await loadGroup(ctx, input.body.group)
      const address = groupSpaceAddress(group.did, input.body.space)
      const { name, readableBy, credentialScopes } = input.body
      const seq = await ctx.db.transaction().execute(async (tx) => {
        requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'space.configure')
        await updateSpace(tx, address, { name, readableBy, credentialScopes })
        return lastChangeIn(tx)
      })
      return { encoding: 'application/json', body: seqField(seq) }
    },
  })
}
export default register
