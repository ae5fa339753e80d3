import type { IncomingMessage } from 'node:http'
import { AuthRequiredError } from '@atproto/xrpc-server'
import type { RegisterMethod } from '../../registrar.js'

/**
 * The change stream (docs/host.md, "The change stream"): the caller's groups' change
 * log over a WebSocket, resumable from a cursor (src/host/stream). Service auth is
 * checked on the upgrade request, before the socket is taken (stream/upgrade.ts), with
 * the per-caller limits; here it is only read back.
 */
const register: RegisterMethod = (server, ctx) => {
  // Without an upgrade the request reaches Express, which would call it an unknown path.
  server.xrpc.routes.all('/xrpc/example.groups.subscribeChanges', (_req, res) => {
    res.status(400).json({ error: 'InvalidRequest', message: 'example.groups.subscribeChanges is a stream: open it as a WebSocket (GET with "Upgrade: websocket")' })
  })
  server.example.groups.subscribeChanges({
    auth: async ({ req }) => {
      const did = ctx.changeStreams?.callerOf(req as IncomingMessage)
      if (!did) throw new AuthRequiredError('Service auth is required: send "Authorization: Bearer <token from getServiceAuth>"', 'AuthMissing')
      return { credentials: { did } }
    },
    handler: ({ req, params, signal }) => {
      if (!ctx.changeStreams) throw new Error('the change stream is not running')
      return ctx.changeStreams.subscribe(ctx, req as IncomingMessage, { groups: params.groups, cursor: params.cursor }, signal)
    },
  })
}
export default register
