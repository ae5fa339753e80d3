import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { requireAction, viewerOf } from '../../../groups/access.js'
import { putRole, renameRole } from '../../../groups/role-definitions.js'
import { answerGroupWrite } from '../../group-write.js'

/**
 * Creates a role or changes its actions and what it may assign (needs `group.configure`);
 * with `previousName`, renames a custom role first (groups/role-definitions.ts renameRole).
 * `LastConfigurer` when the change would leave nobody able to configure the group.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.putRole({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { name, actions, assignable, previousName } = input.body
      return answerGroupWrite(ctx, input.body.group, async (tx, group) => {
        requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'group.configure')
        // A rename first, then the definition under the new name: one transaction, so one change as members see it.
        if (previousName !== undefined && previousName !== name) await renameRole(tx, group.did, previousName, name)
        await putRole(tx, group.did, { name, actions, assignable })
      })
    },
  })
}
export default register
