import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { requireAction, viewerOf } from '../../../groups/access.js'
import { deleteRole } from '../../../groups/role-definitions.js'
import { answerGroupWrite } from '../../group-write.js'

/** Deletes a role nobody holds (needs `group.configure`); `member`, the default, stays. */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.deleteRole({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) =>
      answerGroupWrite(ctx, input.body.group, async (tx, group) => {
        requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'group.configure')
        await deleteRole(tx, group.did, input.body.name)
      }),
  })
}
export default register
