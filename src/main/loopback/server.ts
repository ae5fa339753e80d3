import http from 'node:http'
import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { dispatch, type Handlers } from '../core/ipc/dispatch.js'
import { CONTENT_SECURITY_POLICY } from '../../shared/csp.js'
import { checkIpcRequest } from './guard.js'
import { serveStatic } from './static-files.js'
import { closeServer } from '../../node/listen.js'

/** Room for the largest call: a batch of 10,000 decisions (groups.actMany) is about 2 MB. */
const MAX_BODY = 4 * 1024 * 1024
const IPC_PREFIX = '/ipc/'

const PAGE_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
}

export interface LoopbackShell {
  /** Open this in a browser: it carries the launch secret in its fragment. */
  launchUrl: string
  origin: string
  close(): Promise<void>
}

/**
 * The loopback shell: where no Electron binary exists, the same renderer is served on
 * 127.0.0.1 and the same contract is carried over HTTP, one POST per call.
 */
export async function startLoopbackShell(opts: {
  handlers: Handlers
  rendererDir: string
  port?: number
}): Promise<LoopbackShell> {
  const secret = randomBytes(32).toString('base64url')
  let origin = ''
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith(IPC_PREFIX)) return void handleIpc(req, res)
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end()
      return
    }
    serveStatic(opts.rendererDir, req, res, PAGE_HEADERS)
  })

  const handleIpc = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      res.end(JSON.stringify(body))
    }
    if (req.method !== 'POST') return reply(405, { ok: false, error: { code: 'MethodNotAllowed', message: 'Use POST.' } })
    const check = checkIpcRequest(req, { origin, secret })
    if (!check.ok) return reply(check.status, { ok: false, error: { code: 'Refused', message: check.message } })
    let size = 0
    const chunks: Buffer[] = []
    for await (const chunk of req) {
      size += (chunk as Buffer).length
      if (size > MAX_BODY) return reply(413, { ok: false, error: { code: 'TooLarge', message: 'Call input is too large.' } })
      chunks.push(chunk as Buffer)
    }
    let input: unknown
    try {
      input = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {}
    } catch {
      return reply(400, { ok: false, error: { code: 'InvalidInput', message: 'Call input is not JSON.' } })
    }
    const channel = decodeURIComponent(req.url!.slice(IPC_PREFIX.length))
    reply(200, await dispatch(opts.handlers, channel, input))
  }

  server.listen(opts.port ?? 0, '127.0.0.1')
  await new Promise((r) => server.once('listening', r))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    launchUrl: `${origin}/#launch=${secret}`,
    close: () => closeServer(server),
  }
}
