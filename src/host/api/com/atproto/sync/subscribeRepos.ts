import type { IncomingMessage } from 'node:http'
import type { RegisterMethod } from '../../../registrar.js'

/**
 * The firehose of every group's public repo (public, no auth): `#commit` messages from
 * `cursor` on (src/host/repo/firehose.ts). The WebSocket upgrade is admitted and counted
 * per address in stream/upgrade.ts, before xrpc-server takes the socket, and watched
 * (pings, slow readers) as every stream is.
 */
const register: RegisterMethod = (server, ctx) => {
  server.xrpc.routes.all('/xrpc/com.atproto.sync.subscribeRepos', (_req, res) => {
    res.status(400).json({ error: 'InvalidRequest', message: 'com.atproto.sync.subscribeRepos is a stream: open it as a WebSocket (GET with "Upgrade: websocket")' })
  })
  server.com.atproto.sync.subscribeRepos({
    handler: ({ req, params, signal }) => {
      if (!ctx.changeStreams) throw new Error('the streams are not running')
      return ctx.changeStreams.subscribeRepos(req as IncomingMessage, params.cursor, signal)
    },
  })
}
export default register
