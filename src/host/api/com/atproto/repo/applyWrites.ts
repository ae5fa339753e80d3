import { TID } from '@atproto/common-web'
import { InvalidRequestError } from '@atproto/xrpc-server'
import type { RegisterMethod } from '../../../registrar.js'
import { groupCredentialAuth } from '../../../../auth/group-credential-auth.js'
import { checkRecord } from '../../../../repo/records.js'
import type { RepoWrite } from '../../../../repo/commit.js'
import { repoWriteCall } from '../../../../repo/write-call.js'
import { json } from '../../../answers.js'

/** More writes than this in one call are refused, as a PDS refuses them. */
const MAX_WRITES = 200

/**
 * Several writes to the group's public repo as one commit: all are made or none. Each
 * collection must be in the caller's grant. Answers each write's result in order.
 */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.repo.applyWrites({
    auth: groupCredentialAuth(ctx),
    handler: async ({ auth, input }) => {
      const { repo, swapCommit } = input.body
      if (input.body.writes.length > MAX_WRITES) throw new InvalidRequestError(`Up to ${MAX_WRITES} writes at once`)
      const writes = input.body.writes.map((w): RepoWrite => {
        if (w.$type === 'com.atproto.repo.applyWrites#delete') return { action: 'delete', collection: w.collection, rkey: w.rkey }
        if (w.$type === 'com.atproto.repo.applyWrites#update') {
          return { action: 'put', collection: w.collection, rkey: w.rkey, record: checkRecord(w.collection, w.rkey, w.value) }
        }
        const rkey = w.rkey ?? TID.nextStr()
        return { action: 'create', collection: w.collection, rkey, record: checkRecord(w.collection, rkey, w.value) }
      })
      const commit = await repoWriteCall(ctx, auth.credentials, repo, writes, swapCommit)
      const results = commit.results.map((r) =>
        r.action === 'delete'
          ? { $type: 'com.atproto.repo.applyWrites#deleteResult' as const }
          : { $type: `com.atproto.repo.applyWrites#${r.action}Result` as const, uri: r.uri, cid: r.cid!, validationStatus: 'unknown' },
      )
      return json({ commit: { cid: commit.cid, rev: commit.rev }, results })
    },
  })
}
export default register
