import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { groupAndViewer } from '../../../groups/access.js'
import { ACTIONS, roleDefinitions } from '../../../groups/roles.js'
import { json } from '../../answers.js'
import { avatarUrl } from '../../../groups/avatar.js'

/**
 * A group's profile, join policy and role definitions, and the caller's standing in it.
 * Anyone signed in may read it (it is what a person sees before asking to join); a
 * non-member's `viewer` has empty `roles` and `actions`.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.getGroup({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const { group, viewer } = await groupAndViewer(ctx, params.group, auth.credentials.did)
      const roles = await roleDefinitions(ctx.db, group.did)
      const avatar = await avatarUrl(ctx.db, group.did)
      return json({
        did: group.did,
        handle: group.handle,
        ...(group.displayName ? { displayName: group.displayName } : {}),
        ...(group.description ? { description: group.description } : {}),
        joinPolicy: group.joinPolicy,
        roles,
        viewer: { roles: viewer.roles, actions: ACTIONS.filter((a) => viewer.actions.has(a)) },
        ...(avatar ? { avatar } : {}),
      })
    },
  })
}
export default register
