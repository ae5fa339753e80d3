import { Readable } from 'node:stream'
import type { RegisterMethod } from '../../../registrar.js'
import { repoCarStream } from '../../../../repo/reads.js'

/**
 * A group's public repo as a CAR file rooted at its signed commit (public, no auth), for
 * relays and anyone checking it: the whole repo, or with `since` (a rev) the blocks of
 * later commits only, as a PDS answers. Streamed as it is read (repo/reads.ts), so a large
 * repo costs the host a page of blocks at a time, not the whole CAR in memory.
 */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.sync.getRepo({
    handler: async ({ params }) => ({ encoding: 'application/vnd.ipld.car', body: Readable.from(await repoCarStream(ctx.db, params.did, params.since)) }),
  })
}
export default register
