import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { lastChangeIn, seqField } from '../../../changes.js'
import { configureGroup, profileChange } from '../../../groups/configure.js'

/**
 * Changes the profile or join policy (needs `group.configure`). Fields left out stay as
 * they are; an empty displayName or description clears it. A changed join policy applies
 * to later requests: pending ones stay pending.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.configureGroup({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const group = await loadGroup(ctx, input.body.group)
      const change = profileChange(input.body)
      const seq = await ctx.db.transaction().execute(async (tx) => {
        requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'group.configure')
        await configureGroup(tx, group.did, change)
        return lastChangeIn(tx)
      })
      return { encoding: 'application/json', body: seqField(seq) }
    },
  })
}
export default register
