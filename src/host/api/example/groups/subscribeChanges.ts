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
