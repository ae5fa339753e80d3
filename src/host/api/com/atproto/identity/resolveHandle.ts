import { InvalidRequestError } from '@atproto/xrpc-server'
import type { RegisterMethod } from '../../../registrar.js'

/**
 * Resolves the handle of a group hosted here, without auth, like any PDS does for its
 * accounts. Group handles on the local network (`*.groups.test`) resolve nowhere else.
 */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.identity.resolveHandle({
    handler: async ({ params }) => {
      const handle = params.handle.toLowerCase()
      const group = await ctx.db.selectFrom('group').select('did').where('handle', '=', handle).executeTakeFirst()
      if (!group) throw new InvalidRequestError(`No group on this host has the handle ${handle}`, 'HandleNotFound')
      return { encoding: 'application/json', body: { did: group.did } }
    },
  })
}
export default register
