import type { RegisterMethod } from '../../../registrar.js'
import { groupCredentialAuth } from '../../../../auth/group-credential-auth.js'
import { checkRecord } from '../../../../repo/records.js'
import { repoWriteCall } from '../../../../repo/write-call.js'
import { json } from '../../../answers.js'

/**
 * Creates or overwrites a record in the group's public repo (the group's profile is
 * `app.bsky.actor.profile/self`). `swapRecord` (null: must not exist) and `swapCommit`
 * guard against writing over a change the caller has not seen. Answers `{uri, cid, commit}`.
 */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.repo.putRecord({
    auth: groupCredentialAuth(ctx),
    handler: async ({ auth, input }) => {
      const { repo, collection, rkey, swapRecord, swapCommit } = input.body
      const record = checkRecord(collection, rkey, input.body.record)
      const commit = await repoWriteCall(ctx, auth.credentials, repo, [{ action: 'put', collection, rkey, record, swap: swapRecord }], swapCommit)
      const [result] = commit.results
      return json({ uri: result!.uri, cid: result!.cid!, commit: { cid: commit.cid, rev: commit.rev }, validationStatus: 'unknown' })
    },
  })
}
export default register
