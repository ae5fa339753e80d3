import { InvalidRequestError } from '@atproto/xrpc-server'
import type { RegisterMethod } from '../../../registrar.js'
import { isHostedHandle } from '../../../../groups/handle-domains.js'
import { groupWithHandle } from '../../../../groups/hosted-groups.js'
import { json } from '../../../answers.js'

/**
 * Resolves the handle of a group hosted here, without auth, like any PDS does for its
 * accounts. It vouches only for handles under its handle domains (decisions 6.3), so a
 * group stored under another handle (made before the domains were enforced) is not
 * vouched for. Group handles on the local network (`*.groups.test`) resolve nowhere else.
 */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.identity.resolveHandle({
    handler: async ({ params }) => {
      const handle = params.handle.toLowerCase()
      if (!isHostedHandle(handle, ctx.config.handleDomains)) {
        throw new InvalidRequestError(`This host vouches only for handles ending in ${ctx.config.handleDomains.join(' or ')}`, 'HandleNotFound')
      }
      const group = await groupWithHandle(ctx.db, handle)
      if (!group) throw new InvalidRequestError(`No group on this host has the handle ${handle}`, 'HandleNotFound')
      return json({ did: group.did })
    },
  })
}
export default register
