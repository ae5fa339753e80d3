import type { RegisterMethod } from '../../../registrar.js'
import { repoStream } from '../../../../repo/firehose.js'

/**
 * The firehose of every group's public repo (public, no auth): `#commit` messages from
 * `cursor` on (src/host/repo/firehose.ts). The WebSocket upgrade is admitted per address
 * in stream/upgrade.ts, before xrpc-server takes the socket.
 */
const register: RegisterMethod = (server, ctx) => {
  server.xrpc.routes.all('/xrpc/com.atproto.sync.subscribeRepos', (_req, res) => {
    res.status(400).json({ error: 'InvalidRequest', message: 'com.atproto.sync.subscribeRepos is a stream: open it as a WebSocket (GET with "Upgrade: websocket")' })
  })
  server.com.atproto.sync.subscribeRepos({
    handler: ({ params, signal }) => repoStream(ctx.db, params.cursor, signal),
  })
}
export default register
