import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { groupWhereCallerMay } from '../../../groups/access.js'
import { joinRequestView, pendingRequests, requestKey } from '../../../membership/join-requests.js'
import { decodeCursor, page } from '../../../pagination.js'
import { json, cursorField } from '../../answers.js'

/** Pending requests, oldest first: the order an admin works through them. Needs `admit`. */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.listJoinRequests({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const group = await groupWhereCallerMay(ctx, params.group, auth.credentials.did, 'admit')
      const after = decodeCursor(params.cursor, ['string', 'string'])
      const rows = await pendingRequests(ctx.db, group.did, after, params.limit + 1)
      const { items, cursor } = page(rows, params.limit, requestKey)
      return json({ requests: items.map(joinRequestView), ...cursorField(cursor) })
    },
  })
}
export default register
