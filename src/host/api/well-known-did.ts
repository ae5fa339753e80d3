import type express from 'express'
import type { HostContext } from '../context.js'
import { isHostedHandle } from '../groups/handle-domains.js'
import { groupWithHandle } from '../groups/hosted-groups.js'

/**
 * `GET /.well-known/atproto-did`: the HTTPS way to prove a handle (atproto handle
 * resolution), answered as a PDS does for its accounts. The handle is the request's
 * host name; the answer is the group's DID as text/plain, or a JSON 404 when no group here has
 * that handle or it is outside the host's handle domains (decisions 6.3). With
 * `--trust-proxy`, Express takes the host name from X-Forwarded-Host.
 */
export function registerHandleWellKnown(app: express.Application, ctx: HostContext) {
  app.get('/.well-known/atproto-did', async (req, res, next) => {
    try {
      const handle = (req.hostname ?? '').toLowerCase()
      const group =
        handle && isHostedHandle(handle, ctx.config.handleDomains)
          ? await groupWithHandle(ctx.db, handle)
          : undefined
      if (!group) {
        // JSON like every other error here: resolvers look only at the status, and
        // people and tools reading the body get the host's one error shape.
        res.status(404).json({ error: 'NotFound', message: 'No group on this host has this handle' })
        return
      }
      res.type('text/plain').send(group.did)
    } catch (err) {
      next(err)
    }
  })
}
