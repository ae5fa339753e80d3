import type { RegisterMethod } from '../../../registrar.js'
import { recordProofCar } from '../../../../repo/reads.js'

/** One record with the signed commit and the MST nodes that prove it, as a CAR file (public, no auth). */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.sync.getRecord({
    handler: async ({ params }) => ({
      encoding: 'application/vnd.ipld.car',
      body: Buffer.from(await recordProofCar(ctx.db, params.did, { collection: params.collection as never, rkey: params.rkey as never })),
    }),
  })
}
export default register
