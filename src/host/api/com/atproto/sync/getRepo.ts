import type { RegisterMethod } from '../../../registrar.js'
import { repoCar } from '../../../../repo/reads.js'

/**
 * The whole of a group's public repo as a CAR file rooted at its signed commit (public,
 * no auth), for relays and anyone checking it. `since` is not narrowed on: the whole
 * repo is always sent, which a consumer asking for a diff may take too.
 */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.sync.getRepo({
    handler: async ({ params }) => ({ encoding: 'application/vnd.ipld.car', body: Buffer.from(await repoCar(ctx.db, params.did)) }),
  })
}
export default register
