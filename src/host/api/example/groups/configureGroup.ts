import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { requireAction, viewerOf } from '../../../groups/access.js'
import { configureGroup, profileChange } from '../../../groups/configure.js'
import { answerGroupWrite } from '../../group-write.js'

/**
 * Changes the profile or join policy (needs `group.configure`). Fields left out stay as
 * they are; an empty displayName or description clears it. A changed join policy applies
 * to later requests: pending ones stay pending.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.configureGroup({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const change = profileChange(input.body)
      return answerGroupWrite(ctx, input.body.group, async (tx, group) => {
        requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'group.configure')
        await configureGroup(tx, group.did, change)
      })
    },
  })
}
export default register
