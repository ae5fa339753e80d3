import http from 'node:http'
import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { dispatch, type Handlers } from '../core/ipc/dispatch.js'
import { CONTENT_SECURITY_POLICY } from '../../shared/csp.js'
import { checkIpcRequest } from './guard.js'
import { serveStatic } from './static-files.js'
import { closeServer } from '../../node/listen.js'
import type { NoticeHub } from '../core/ipc/notices.js'
import { errorFields, log } from '../core/log/log.js'

/** Room for the largest call: a batch of 10,000 decisions (groups.actMany) is about 2 MB. */
const MAX_BODY = 4 * 1024 * 1024
const IPC_PREFIX = '/ipc/'
/** The core's change notices as Server-Sent Events (one stream per open page). */
const NOTICES_PATH = '/notices'
/** A comment line now and then, so a proxy or the browser does not take a quiet stream for a dead one. */
const KEEPALIVE_MS = 25_000

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
  /** The core's change notices, streamed to the page (none: the stream stays quiet). */
  notices?: NoticeHub
}): Promise<LoopbackShell> {
  const secret = randomBytes(32).toString('base64url')
  let origin = ''
  const streams = new Set<http.ServerResponse>()
  const server = http.createServer((req, res) => {
    // Any local page or program can reach this port: whatever it sends, the answer is an
    // error at worst, never the end of the app's core (which runs in this process).
    const failed = (err: unknown) => {
      // Into the app's log (censored, in the log folder a person can send), not a console nobody sees.
      log.error('loopback', 'a request failed', { method: req.method, ...errorFields(err) })
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      res.end()
    }
    try {
      if (req.url === NOTICES_PATH) return void handleNotices(req, res)
      if (req.url?.startsWith(IPC_PREFIX)) return void handleIpc(req, res).catch(failed)
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405).end()
        return
      }
      serveStatic(opts.rendererDir, req, res, PAGE_HEADERS)
    } catch (err) {
      failed(err)
    }
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
    let channel: string
    try {
      channel = decodeURIComponent(req.url!.slice(IPC_PREFIX.length))
    } catch {
      return reply(400, { ok: false, error: { code: 'UnknownChannel', message: 'The call’s name is not a well-formed address.' } })
    }
    reply(200, await dispatch(opts.handlers, channel, input))
  }

  /**
   * `POST /notices` answers with a text/event-stream that stays open. It is guarded like
   * the calls (exact Origin and Host, the launch secret as a bearer token), which is why
   * the page reads it with fetch rather than EventSource: EventSource can send neither
   * the secret nor, same-origin, an Origin header.
   */
  const handleNotices = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const refuse = (status: number, message: string) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      res.end(JSON.stringify({ ok: false, error: { code: 'Refused', message } }))
    }
    if (req.method !== 'POST') return refuse(405, 'Use POST.')
    const check = checkIpcRequest(req, { origin, secret })
    if (!check.ok) return refuse(check.status, check.message)
    req.resume()
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
    res.write(': notices\n\n')
    streams.add(res)
    const unsubscribe = opts.notices?.subscribe((notice) => res.write(`event: notice\ndata: ${JSON.stringify(notice)}\n\n`))
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEPALIVE_MS)
    keepAlive.unref()
    res.on('close', () => {
      clearInterval(keepAlive)
      unsubscribe?.()
      streams.delete(res)
    })
  }

  server.listen(opts.port ?? 0, '127.0.0.1')
  await new Promise((r) => server.once('listening', r))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    launchUrl: `${origin}/#launch=${secret}`,
    close: () => {
      // Open event streams would hold the server open for ever.
      for (const res of streams) res.end()
      return closeServer(server)
    },
  }
}
