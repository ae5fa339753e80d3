import type { RegisterMethod } from '../../../registrar.js'
import { serviceAuth } from '../../../../auth/service-auth.js'
import { decodeCursor, page } from '../../../../pagination.js'
import { readableSpace } from '../../../../spaces/readers.js'

/**
 * Records of one repo and collection that the host keeps in a group's space, for a
 * member whose roles may read the space; newest rkey first, as a member's PDS lists
 * them. The group's space index is read this way: repo = the group, collection
 * `example.groups.space`, in the `members` space.
 */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.space.listRecords({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const { repo, collection, limit } = params
      const space = await readableSpace(ctx, params.space, auth.credentials.did)
      const before = decodeCursor(params.cursor)
      let query = ctx.db
        .selectFrom('record')
        .select(['uri', 'rkey', 'cid', 'value'])
        .where('space', '=', space.uri)
        .where('repo', '=', repo)
        .where('collection', '=', collection)
      if (before !== undefined) query = query.where('rkey', '<', before)
      const rows = await query.orderBy('rkey', 'desc').limit(limit + 1).execute()
      const { items, cursor } = page(rows, limit, (r) => r.rkey)
      return {
        encoding: 'application/json',
        body: {
          records: items.map((r) => ({ uri: r.uri, cid: r.cid, value: JSON.parse(r.value) as Record<string, unknown> })),
          ...(cursor ? { cursor } : {}),
        },
      }
    },
  })
}
export default register
