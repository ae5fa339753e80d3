import { InvalidRequestError } from '@atproto/xrpc-server'
import { parseSpaceAddress, spaceRecordAddress } from '../../shared/space-address.js'
import { decodeCursor, page } from '../../host/pagination.js'
import type { RegisterSpaceRoute } from './context.js'
import { assertMayRead, spaceReaderAuth } from './reader-auth.js'

/**
 * `com.atproto.space.listRecords` on the member's own PDS: the author's records of one
 * collection in one space, newest rkey first; readable by their author and by the
 * space's group host (`assertMayRead`).
 */
const register: RegisterSpaceRoute = (server, ctx) => {
  server.com.atproto.space.listRecords({
    auth: spaceReaderAuth(ctx),
    handler: async ({ auth, params }) => {
      const { space, repo, collection, limit } = params
      if (!parseSpaceAddress(space)) throw new InvalidRequestError('space must be a space address: at://<group_did>/space/<space_type>/<skey>')
      await assertMayRead(ctx, auth.credentials, { space, repo })
      const rows = await ctx.store.list({ repo, space, collection, limit: limit + 1, before: decodeCursor(params.cursor, ['string']) })
      const { items, cursor } = page(rows, limit, (r) => r.rkey)
      return {
        encoding: 'application/json',
        body: {
          records: items.map((r) => ({ uri: spaceRecordAddress(space, repo, collection, r.rkey), cid: r.cid, value: JSON.parse(r.value) as Record<string, unknown> })),
          ...(cursor ? { cursor } : {}),
        },
      }
    },
  })
}
export default register
