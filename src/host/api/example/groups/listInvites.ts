import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { groupWhereCallerMay } from '../../../groups/access.js'
import { inviteView, outstandingInvites } from '../../../membership/invites.js'
import { decodeCursor, page } from '../../../pagination.js'
import { json, cursorField } from '../../answers.js'

/** Outstanding invites, oldest first (by row key, so pages never skip or repeat). Needs `invite`. */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.listInvites({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const group = await groupWhereCallerMay(ctx, params.group, auth.credentials.did, 'invite')
      const after = decodeCursor(params.cursor, ['int'])
      const rows = await outstandingInvites(ctx.db, group.did, after, params.limit + 1, new Date().toISOString())
      const { items, cursor } = page(rows, params.limit, (r) => r.id)
      return json({ invites: items.map(inviteView), ...cursorField(cursor) })
    },
  })
}
export default register
