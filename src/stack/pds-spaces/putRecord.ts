import { repoPrepare } from '@atproto/pds'
import { InvalidRequestError } from '@atproto/xrpc-server'
import { lexToJson } from '@atproto/lexicon'
import { parseSpaceAddress, spaceRecordAddress } from '../../shared/space-address.js'
import { assertOwnRepo, assertRepoScope, sessionAuth, type RegisterSpaceRoute } from './context.js'
import { announceWrite } from './announce.js'

/**
 * `com.atproto.space.putRecord` on the member's own PDS: creates or overwrites the
 * member's record with a stable rkey in a group's space (one acceptance per group, one
 * RSVP per event), then announces it to the group's host.
 */
const register: RegisterSpaceRoute = (server, ctx) => {
  server.com.atproto.space.putRecord({
    auth: sessionAuth(ctx),
    handler: async ({ auth, input }) => {
      const { space, repo, collection, rkey, record } = input.body
      if (!parseSpaceAddress(space)) throw new InvalidRequestError('space must be a space address: at://<group_did>/space/<space_type>/<skey>')
      assertOwnRepo(auth.credentials, repo)
      // Both: a put may create or overwrite, whichever it turns out to be.
      assertRepoScope(auth.credentials, collection, ['create', 'update'])

      // The PDS's own preparation of a record write: `$type` must equal the collection
      // (it is filled in when absent), the rkey is checked, and the CID is the one the
      // PDS would give the same record in a repo.
      let write
      try {
        write = await repoPrepare.prepareUpdate({ did: repo as never, collection: collection as never, rkey, record: record as never })
      } catch (err) {
        throw new InvalidRequestError((err as Error).message)
      }
      const cid = write.cid.toString()
      await ctx.store.put({ repo, space, collection, rkey, cid, value: JSON.stringify(lexToJson(write.record as never)) })

      // Awaited (it is bounded and never throws) so that whoever reads the host next
      // sees the write counted; the answer does not depend on what the host says.
      await announceWrite(ctx, { space, repo, collection, rkey, cid, action: 'put' })
      return { encoding: 'application/json', body: { uri: spaceRecordAddress(space, repo, collection, rkey), cid } }
    },
  })
}
export default register
