import type { RegisterMethod } from '../../../registrar.js'
import { openRepo } from '../../../../repo/reads.js'
import { json } from '../../../answers.js'

/** The CID and rev of a group's public repo's current commit (public, no auth); RepoNotFound before its first write. */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.sync.getLatestCommit({
    handler: async ({ params }) => {
      const { root } = await openRepo(ctx.db, params.did)
      return json({ cid: root.cid.toString(), rev: root.rev })
    },
  })
}
export default register
