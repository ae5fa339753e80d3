import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { decodeCursor, page } from '../../../pagination.js'
import { refuse } from '../../../errors.js'

/** Newest first; two bans can share a millisecond, so the key is the time and then the DID. */
const banKey = (row: { createdAt: string; did: string }) => `${row.createdAt} ${row.did}`

function parseBanKey(cursor: string | undefined): { createdAt: string; did: string } | undefined {
  const raw = decodeCursor(cursor)
  if (raw === undefined) return undefined
  const [createdAt, did, ...rest] = raw.split(' ')
  if (!createdAt || !did || rest.length) throw refuse('InvalidRequest', 'Malformed cursor')
  return { createdAt, did }
}

/** The people banned from a group, newest first; needs `eject` (those who may lift a ban). */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.listBans({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const group = await loadGroup(ctx, params.group)
      requireAction(await viewerOf(ctx.db, group.did, auth.credentials.did), 'eject')
      const after = parseBanKey(params.cursor)
      let query = ctx.db.selectFrom('ban').selectAll().where('groupDid', '=', group.did)
      if (after) {
        query = query.where((eb) =>
          eb.or([eb('createdAt', '<', after.createdAt), eb.and([eb('createdAt', '=', after.createdAt), eb('did', '<', after.did)])]),
        )
      }
      const rows = await query.orderBy('createdAt', 'desc').orderBy('did', 'desc').limit(params.limit + 1).execute()
      const { items, cursor } = page(rows, params.limit, banKey)
      return {
        encoding: 'application/json',
        body: {
          bans: items.map((r) => ({ did: r.did, createdBy: r.createdBy, createdAt: r.createdAt, ...(r.note !== null ? { note: r.note } : {}) })),
          ...(cursor ? { cursor } : {}),
        },
      }
    },
  })
}
export default register
