import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { joinRequestView, parseRequestKey, requestKey } from '../../../groups/join-requests.js'
import { decodeCursor, page } from '../../../pagination.js'

/** Pending requests, oldest first: the order an admin works through them. Needs `admit`. */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.listJoinRequests({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const group = await loadGroup(ctx, params.group)
      requireAction(await viewerOf(ctx.db, group.did, auth.credentials.did), 'admit')
      const raw = decodeCursor(params.cursor)
      const after = raw === undefined ? undefined : parseRequestKey(raw)

      let query = ctx.db.selectFrom('join_request').selectAll().where('groupDid', '=', group.did).where('status', '=', 'pending')
      if (after) {
        query = query.where((eb) =>
          eb.or([eb('createdAt', '>', after.createdAt), eb.and([eb('createdAt', '=', after.createdAt), eb('id', '>', after.id)])]),
        )
      }
      const rows = await query.orderBy('createdAt').orderBy('id').limit(params.limit + 1).execute()
      const { items, cursor } = page(rows, params.limit, requestKey)
      return {
        encoding: 'application/json',
        body: { requests: items.map(joinRequestView), ...(cursor ? { cursor } : {}) },
      }
    },
  })
}
export default register
