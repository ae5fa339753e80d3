import type { RegisterMethod } from '../../../registrar.js'
import { groupCredentialAuth } from '../../../../auth/group-credential-auth.js'
import { recordChange } from '../../../../changes.js'
import { writeAsGroup } from '../../../../spaces/group-writes.js'
import { recordUri, removeRecord } from '../../../../spaces/records.js'
import { json } from '../../../answers.js'

/**
 * Deletes the group's record from one of its spaces, with a group credential. Deleting
 * what is not there succeeds (the outcome asked for holds), as on a member's PDS; only
 * an actual deletion enters the change log.
 */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.space.deleteRecord({
    auth: groupCredentialAuth(ctx),
    handler: async ({ auth, input }) => {
      const { space, repo, collection, rkey } = input.body
      await writeAsGroup(ctx.db, auth.credentials, { space, repo, collection, actions: ['delete'] }, async (tx) => {
        const key = { space, repo, collection, rkey }
        if (await removeRecord(tx, key)) await recordChange(tx, repo, 'record.deleted', recordUri(key))
      })
      return json({})
    },
  })
}
export default register
