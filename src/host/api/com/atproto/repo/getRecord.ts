import { InvalidRequestError } from '@atproto/xrpc-server'
import type { RegisterMethod } from '../../../registrar.js'
import { hostedRepo, readRecord } from '../../../../repo/reads.js'
import { json } from '../../../answers.js'

/** One record of a group's public repo (public, no auth); `cid` asks for that version only. */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.repo.getRecord({
    handler: async ({ params }) => {
      const { did } = await hostedRepo(ctx.db, params.repo)
      const uri = `at://${did}/${params.collection}/${params.rkey}`
      const found = await readRecord(ctx.db, did, params.collection, params.rkey)
      if (!found || (params.cid && params.cid !== found.cid)) throw new InvalidRequestError(`No record at ${uri}`, 'RecordNotFound')
      return json({ uri, cid: found.cid, value: found.value })
    },
  })
}
export default register
