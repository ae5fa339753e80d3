import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { inviteView } from '../../../groups/invites.js'
import { decodeCursor, page } from '../../../pagination.js'
import { refuse } from '../../../errors.js'

/** Outstanding invites, oldest first (by row key, so pages never skip or repeat). Needs `invite`. */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.listInvites({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const group = await loadGroup(ctx, params.group)
      requireAction(await viewerOf(ctx.db, group.did, auth.credentials.did), 'invite')
      const raw = decodeCursor(params.cursor)
      if (raw !== undefined && !/^\d{1,15}$/.test(raw)) throw refuse('InvalidRequest', 'Malformed cursor')
      const now = new Date().toISOString()

      let query = ctx.db
        .selectFrom('invite')
        .selectAll()
        .where('groupDid', '=', group.did)
        .where('status', '=', 'outstanding')
        // An expired invite no longer redeems, so it is not outstanding either.
        .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', now)]))
      if (raw !== undefined) query = query.where('id', '>', Number(raw))
      const rows = await query.orderBy('id').limit(params.limit + 1).execute()
      const { items, cursor } = page(rows, params.limit, (r) => r.id)
      return {
        encoding: 'application/json',
        body: { invites: items.map(inviteView), ...(cursor ? { cursor } : {}) },
      }
    },
  })
}
export default register
