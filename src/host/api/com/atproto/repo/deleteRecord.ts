import type { RegisterMethod } from '../../../registrar.js'
import { groupCredentialAuth } from '../../../../auth/group-credential-auth.js'
import { repoWriteCall } from '../../../../repo/write-call.js'
import { json } from '../../../answers.js'

/**
 * Deletes a record from the group's public repo. A record that is not there is no
 * error (as on a PDS); the answer then names no commit.
 */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.repo.deleteRecord({
    auth: groupCredentialAuth(ctx),
    handler: async ({ auth, input }) => {
      const { repo, collection, rkey, swapRecord, swapCommit } = input.body
      const commit = await repoWriteCall(ctx, auth.credentials, repo, [{ action: 'delete', collection, rkey, swap: swapRecord }], swapCommit).catch((err: unknown) => {
        // An empty repo has nothing to delete: that is not a failure either.
        if ((err as { customErrorName?: string }).customErrorName === 'RecordNotFound') return null
        throw err
      })
      return json(commit?.results.length ? { commit: { cid: commit.cid, rev: commit.rev } } : {})
    },
  })
}
export default register
