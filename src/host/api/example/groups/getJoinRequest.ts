import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup } from '../../../groups/access.js'
import { joinRequestView, pendingRequestOf } from '../../../membership/join-requests.js'
import { json } from '../../answers.js'

/**
 * The caller's own pending request. Once it is decided or withdrawn there is none: the
 * answer is `{}`, and the caller learns the outcome from whether they are a member.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.getJoinRequest({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const group = await loadGroup(ctx, params.group)
      const row = await pendingRequestOf(ctx.db, group.did, auth.credentials.did)
      return json(row ? { request: joinRequestView(row) } : {})
    },
  })
}
export default register
