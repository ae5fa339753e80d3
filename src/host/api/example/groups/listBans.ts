import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { groupWhereCallerMay } from '../../../groups/access.js'
import { banKey, bansPage } from '../../../membership/bans.js'
import { decodeCursor, page } from '../../../pagination.js'
import { json, cursorField } from '../../answers.js'

/** The people banned from a group, newest first; needs `eject` (those who may lift a ban). */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.listBans({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const group = await groupWhereCallerMay(ctx, params.group, auth.credentials.did, 'eject')
      const after = decodeCursor(params.cursor, ['string', 'string'])
      const rows = await bansPage(ctx.db, group.did, after, params.limit + 1)
      const { items, cursor } = page(rows, params.limit, banKey)
      return json({
        bans: items.map((r) => ({ did: r.did, createdBy: r.createdBy, createdAt: r.createdAt, ...(r.note !== null ? { note: r.note } : {}) })),
        ...cursorField(cursor),
      })
    },
  })
}
export default register
