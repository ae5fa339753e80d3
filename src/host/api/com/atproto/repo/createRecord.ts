import { TID } from '@atproto/common-web'
import type { RegisterMethod } from '../../../registrar.js'
import { groupCredentialAuth } from '../../../../auth/group-credential-auth.js'
import { checkRecord } from '../../../../repo/records.js'
import { repoWriteCall } from '../../../../repo/write-call.js'
import { json } from '../../../answers.js'

/**
 * Creates a record in the group's public repo (issue 28), as a PDS does for its account:
 * with a group credential or group session whose grant's `repoCollections` (or `repo:`
 * scopes) include the collection. The rkey is a new TID unless given; one in use is
 * refused (putRecord overwrites). Answers `{uri, cid, commit}`.
 */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.repo.createRecord({
    auth: groupCredentialAuth(ctx),
    handler: async ({ auth, input }) => {
      const { repo, collection, swapCommit } = input.body
      const rkey = input.body.rkey ?? TID.nextStr()
      const record = checkRecord(collection, rkey, input.body.record)
      const commit = await repoWriteCall(ctx, auth.credentials, repo, [{ action: 'create', collection, rkey, record }], swapCommit)
      const [result] = commit.results
      return json({ uri: result!.uri, cid: result!.cid!, commit: { cid: commit.cid, rev: commit.rev }, validationStatus: 'unknown' })
    },
  })
}
export default register
