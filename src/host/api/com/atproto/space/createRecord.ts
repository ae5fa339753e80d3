import type { RegisterMethod } from '../../../registrar.js'
import { groupCredentialAuth } from '../../../../auth/group-credential-auth.js'
import { recordChange } from '../../../../changes.js'
import { writeAsGroup } from '../../../../spaces/group-writes.js'
import { prepareRecord, storeRecord } from '../../../../spaces/records.js'
import { checkSpaceBlobs } from '../../../../spaces/space-blobs.js'
import { TID } from '@atproto/common-web'
import { json } from '../../../answers.js'

/**
 * Creates a record for the group in one of its spaces, with a group credential (spec
 * section 5.5). The host assigns the rkey, a TID, unless one is given; an rkey in use
 * is refused (`putRecord` overwrites). Answers `{uri, cid}`; the uri names the author
 * as member writes' do: `<space>/<group_did>/<collection>/<rkey>`.
 */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.space.createRecord({
    auth: groupCredentialAuth(ctx),
    handler: async ({ auth, input }) => {
      const { space, repo, collection, record } = input.body
      const rkey = input.body.rkey ?? TID.nextStr()
      const now = new Date().toISOString()
      // Authorized first: a caller learns nothing about records it may not write.
      const { uri, cid } = await writeAsGroup(ctx.db, auth.credentials, { space, repo, collection, actions: ['create'] }, async (tx) => {
        const prepared = await prepareRecord(collection, rkey, record)
        await checkSpaceBlobs(tx, space, record)
        const stored = await storeRecord(tx, { space, repo, collection, rkey }, prepared, { now, createOnly: true })
        await recordChange(tx, repo, 'record.created', stored.uri)
        return { uri: stored.uri, cid: prepared.cid }
      })
      return json({ uri, cid })
    },
  })
}
export default register
