import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { requireAction, viewerOf } from '../../../groups/access.js'
import { groupSpaceAddress } from '../../../spaces/space.js'
import { updateSpace } from '../../../spaces/space-admin.js'
import { answerGroupWrite } from '../../group-write.js'

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
      const { name, readableBy, credentialScopes } = input.body
      return answerGroupWrite(ctx, input.body.group, async (tx, group) => {
        const address = groupSpaceAddress(group.did, input.body.space)
        requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'space.configure')
        await updateSpace(tx, address, { name, readableBy, credentialScopes })
      })
    },
  })
}
export default register
