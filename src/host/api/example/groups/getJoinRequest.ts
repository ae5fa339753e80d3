import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup } from '../../../groups/access.js'
import { joinRequestView } from '../../../groups/join-requests.js'

/**
 * The caller's own pending request. Once it is decided or withdrawn there is none: the
 * answer is `{}`, and the caller learns the outcome from whether they are a member.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.getJoinRequest({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const group = await loadGroup(ctx, params.group)
      const row = await ctx.db
        .selectFrom('join_request')
        .selectAll()
        .where('groupDid', '=', group.did)
        .where('did', '=', auth.credentials.did)
        .where('status', '=', 'pending')
        .executeTakeFirst()
      return { encoding: 'application/json', body: row ? { request: joinRequestView(row) } : {} }
    },
  })
}
export default register
