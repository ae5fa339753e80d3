import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { groupAndViewer, requireAction } from '../../../groups/access.js'
import { memberHistory } from '../../../membership/member-history.js'
import { json } from '../../answers.js'

/**
 * Someone's past in the group, for those who decide who comes in or goes (`admit` or
 * `eject`): were they a member before, how did they go, are they banned.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.getMemberHistory({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const { group, viewer } = await groupAndViewer(ctx, params.group, auth.credentials.did)
      if (!viewer.actions.has('admit')) requireAction(viewer, 'eject')
      return json(await memberHistory(ctx.db, group.did, params.did))
    },
  })
}
export default register
