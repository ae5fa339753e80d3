import type { RegisterMethod } from '../../../registrar.js'
import { listRepos } from '../../../../repo/reads.js'
import { json } from '../../../answers.js'

/** The public repos this host keeps (groups that have written at least once), by DID (public, no auth). */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.sync.listRepos({
    handler: async ({ params }) => json(await listRepos(ctx.db, { limit: params.limit, cursor: params.cursor })),
  })
}
export default register
