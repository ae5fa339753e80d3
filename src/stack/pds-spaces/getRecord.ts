import { InvalidRequestError } from '@atproto/xrpc-server'
import { parseSpaceAddress, spaceRecordAddress } from '../../shared/space-address.js'
import type { RegisterSpaceRoute } from './context.js'
import { assertMayRead, spaceReaderAuth } from './reader-auth.js'

/**
 * `com.atproto.space.getRecord` on the member's own PDS. Space records are not public:
 * their author reads them back with their own session, and the space's group host
 * reads them with its service auth to check what a member announced (decisions 6.1;
 * `assertMayRead`). Reading through the group's grant is not part of the local network.
 */
const register: RegisterSpaceRoute = (server, ctx) => {
  server.com.atproto.space.getRecord({
    auth: spaceReaderAuth(ctx),
    handler: async ({ auth, params }) => {
      const { space, repo, collection, rkey } = params
      if (!parseSpaceAddress(space)) throw new InvalidRequestError('space must be a space address: at://<group_did>/space/<space_type>/<skey>')
      await assertMayRead(ctx, auth.credentials, { space, repo })
      const rec = await ctx.store.get({ repo, space, collection, rkey })
      if (!rec) throw new InvalidRequestError(`No record ${collection}/${rkey} in that space`, 'RecordNotFound')
      return {
        encoding: 'application/json',
        body: { uri: spaceRecordAddress(space, repo, collection, rkey), cid: rec.cid, value: JSON.parse(rec.value) as Record<string, unknown> },
      }
    },
  })
}
export default register
