import type { RegisterMethod } from '../../../registrar.js'
import { hostedRepo, listRepoRecords } from '../../../../repo/reads.js'
import { json } from '../../../answers.js'

/** A page of one collection of a group's public repo (public, no auth), newest rkey first unless `reverse`. */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.repo.listRecords({
    handler: async ({ params }) => {
      const { did } = await hostedRepo(ctx.db, params.repo)
      const { collection, limit, cursor, reverse } = params
      return json(await listRepoRecords(ctx.db, did, { collection, limit, cursor, reverse }))
    },
  })
}
export default register
