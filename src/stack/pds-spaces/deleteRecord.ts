import { InvalidRequestError } from '@atproto/xrpc-server'
import { parseSpaceAddress } from '../../shared/space-address.js'
import { assertOwnRepo, assertRepoScope, sessionAuth, type RegisterSpaceRoute } from './context.js'
import { announceWrite } from './announce.js'

/**
 * `com.atproto.space.deleteRecord` on the member's own PDS. Deleting what is not there
 * succeeds (the outcome the member asked for holds), and is announced all the same, so
 * a host that missed the record's removal catches up.
 */
const register: RegisterSpaceRoute = (server, ctx) => {
  server.com.atproto.space.deleteRecord({
    auth: sessionAuth(ctx),
    handler: async ({ auth, input }) => {
      const { space, repo, collection, rkey } = input.body
      if (!parseSpaceAddress(space)) throw new InvalidRequestError('space must be a space address: at://<group_did>/space/<space_type>/<skey>')
      assertOwnRepo(auth.credentials, repo)
      assertRepoScope(auth.credentials, collection, ['delete'])
      await ctx.store.delete({ repo, space, collection, rkey })
      await announceWrite(ctx, { space, repo, collection, rkey, action: 'delete' })
      return { encoding: 'application/json', body: {} }
    },
  })
}
export default register
