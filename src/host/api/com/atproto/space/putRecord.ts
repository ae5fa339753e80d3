import type { RegisterMethod } from '../../../registrar.js'
import { groupCredentialAuth } from '../../../../auth/group-credential-auth.js'
import { recordChange } from '../../../../changes.js'
import { writeAsGroup } from '../../../../spaces/group-writes.js'
import { prepareRecord, storeRecord } from '../../../../spaces/records.js'
import { checkSpaceBlobs } from '../../../../spaces/space-blobs.js'
import { json } from '../../../answers.js'

/**
 * Creates or overwrites the group's record at a stable rkey in one of its spaces, with a
 * group credential (spec section 5.5). Answers `{uri, cid}`.
 */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.space.putRecord({
    auth: groupCredentialAuth(ctx),
    handler: async ({ auth, input }) => {
      const { space, repo, collection, rkey, record } = input.body
      const now = new Date().toISOString()
      // Authorized first: a caller learns nothing about records it may not write.
      const { uri, cid } = await writeAsGroup(ctx.db, auth.credentials, { space, repo, collection, actions: ['create', 'update'] }, async (tx) => {
        const prepared = await prepareRecord(collection, rkey, record)
        await checkSpaceBlobs(tx, space, record)
        const stored = await storeRecord(tx, { space, repo, collection, rkey }, prepared, { now })
        await recordChange(tx, repo, stored.created ? 'record.created' : 'record.updated', stored.uri)
        return { uri: stored.uri, cid: prepared.cid }
      })
      return json({ uri, cid })
    },
  })
}
export default register
