import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { requireAction, viewerOf } from '../../../groups/access.js'
import { groupSpaceAddress } from '../../../spaces/space.js'
import { deleteSpace } from '../../../spaces/space-admin.js'
import { answerGroupWrite } from '../../group-write.js'

/**
 * Deletes a space (needs `space.delete`): its index record, every record the host keeps
 * in it, and the space itself. Members' own records in it stay on their PDSes; the
 * host no longer counts them. Credentials granted for it stop working.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.deleteSpace({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      return answerGroupWrite(ctx, input.body.group, async (tx, group) => {
        const address = groupSpaceAddress(group.did, input.body.space)
        requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'space.delete')
        await deleteSpace(tx, address)
      })
    },
  })
}
export default register
