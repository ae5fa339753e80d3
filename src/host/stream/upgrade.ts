import http, { type IncomingMessage } from 'node:http'
import { createRequire } from 'node:module'
import type { Duplex } from 'node:stream'
import type express from 'express'
import { XRPCError, extractUrlNsid } from '@atproto/xrpc-server'
import type { Logger } from 'pino'
import type { Server } from '../../node/lexicon/index.js'
import { verifyServiceAuth, type ServiceAuthDeps } from '../auth/service-auth.js'
import { ipKey } from '../limits/ip-limit.js'
import type { CounterStore } from '../limits/window-counter.js'
import type { RateLimits } from '../limits/rate-limits.js'
import { limitInWords, waitInWords } from '../limits/refusal.js'
import { DATABASE_BUSY_MESSAGE, RETRY_AFTER_S, isDatabaseBusy } from '../unavailable.js'
import { ANONYMOUS, type StreamConnections, type StreamSocket } from './connections.js'
import { paramsProblem } from './stream-params.js'

/** Express's own client-address reader (what `req.ip` uses), for requests Express never sees. */
const proxyaddr = createRequire(import.meta.url)('proxy-addr') as (req: IncomingMessage, trust: unknown) => string

/** Incoming WebSocket messages: clients send none, so a small cap (ws's default is 100 MiB). */
const MAX_CLIENT_MESSAGE_BYTES = 4 * 1024
/** How long a caller turned away for too many open streams is told to wait. */
const RETRY_OPEN_SECONDS = 30

interface Refusal {
  status: number
  error: string
  message: string
  headers?: Record<string, string | number>
}

/** Writes a plain HTTP answer on a socket whose upgrade is refused, and closes it. */
function answer(socket: Duplex, { status, error, message, headers = {} }: Refusal): void {
  const json = JSON.stringify({ error, message })
  const head = [
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(json)}`,
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ]
  socket.end(`${head.join('\r\n')}\r\n\r\n${json}`)
}

/** A 429 in the shape @atproto/pds gives (xrpc-server's rate-limit headers). */
function tooMany(limit: number, policy: string, resetAt: number, message: string): Refusal {
  return {
    status: 429,
    error: 'RateLimitExceeded',
    message,
    headers: {
      'RateLimit-Limit': limit,
      'RateLimit-Remaining': 0,
      'RateLimit-Reset': Math.floor(resetAt / 1000),
      'RateLimit-Policy': policy,
      'Retry-After': Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)),
    },
  }
}

/** An HTTP token list (RFC 9110), as a subprotocol header must be. */
const TOKENS = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+(\s*,\s*[!#$%&'*+\-.^_`|~0-9A-Za-z]+)*$/

/**
 * What makes this not a WebSocket opening handshake (RFC 6455 section 4.2.1), checked
 * as `ws` checks it, so the refusal is the host's JSON rather than ws's plain text.
 */
function handshakeProblem(req: IncomingMessage): string | undefined {
  if (req.method !== 'GET') return 'A WebSocket is opened with GET'
  if (req.headers.upgrade?.toLowerCase() !== 'websocket') return 'The Upgrade header must be "websocket"'
  const key = req.headers['sec-websocket-key']
  if (typeof key !== 'string' || !/^[+/0-9A-Za-z]{22}==$/.test(key.trim())) return 'Missing or invalid Sec-WebSocket-Key header'
  const version = req.headers['sec-websocket-version']
  if (version !== '13' && version !== '8') return 'Missing or unsupported Sec-WebSocket-Version header (13)'
  const protocol = req.headers['sec-websocket-protocol']
  if (protocol !== undefined && !TOKENS.test(protocol)) return 'Invalid Sec-WebSocket-Protocol header'
  return undefined
}

export interface UpgradeDeps {
  /** Service auth's needs, and the log the upgrades are written to. */
  ctx: ServiceAuthDeps & { logger: Logger }
  xrpc: Server
  app: express.Application
  connections: StreamConnections
  counters: CounterStore
  rateLimits: RateLimits
}

/**
 * The HTTP server's `upgrade` handler: the WebSocket requests for XRPC subscriptions
 * (`example.groups.subscribeChanges`), checked before the upgrade so a refusal is plain
 * HTTP: per-address limiting of requests without accepted credentials (as
 * ../limits/ip-limit.ts does for every other request, which these never reach), service
 * auth (401, 503 as for any method), then the caller's query allowance (each stream
 * opened counts as one query) and their open streams, per account and per address
 * (429 with `RateLimit-*`). Only then does xrpc-server take the socket; the stream's
 * own auth reads what was checked here.
 */
/** The one subscription served without credentials. */
const PUBLIC_FIREHOSE = 'com.atproto.sync.subscribeRepos'

export function upgradeHandler(deps: UpgradeDeps): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  const { ctx, xrpc, app, connections, counters, rateLimits } = deps
  const windowMs = rateLimits.windowSeconds * 1000
  return (req, socket, head) => {
    socket.on('error', () => {})
    const started = Date.now()
    const nsid = req.url ? extractUrlNsid(req.url) : undefined
    const sub = nsid ? xrpc.xrpc.subscriptions.get(nsid) : undefined
    const log = (status: number, caller?: string, error?: string) =>
      ctx.logger.info({ method: req.method, nsid: nsid ?? req.url?.split('?')[0], status, ms: Date.now() - started, ...(caller ? { caller } : {}), ...(error ? { error } : {}) }, 'upgrade')
    const refuse = (refusal: Refusal, caller?: string) => {
      log(refusal.status, caller, refusal.error)
      answer(socket, refusal)
    }
    if (!sub) {
      return refuse({ status: 400, error: 'InvalidRequest', message: 'Only example.groups.subscribeChanges and com.atproto.sync.subscribeRepos are served over a WebSocket; call this without "Upgrade"' })
    }
    const handshake = handshakeProblem(req)
    if (handshake) return refuse({ status: 400, error: 'InvalidRequest', message: handshake })

    /** Counts the stream among this process's open streams, or refuses it; then hands the socket to xrpc-server. */
    const admitAndOpen = (caller: string, ip: string) => {
      const anonymous = caller === ANONYMOUS
      const who = anonymous ? undefined : caller
      const admitted = connections.admit(req, caller, ip)
      if ('refused' in admitted && admitted.refused === 'total') {
        return refuse(
          { status: 503, error: 'ServiceUnavailable', message: 'This host is serving as many streams as it can just now; try again shortly', headers: { 'Retry-After': RETRY_OPEN_SECONDS } },
          who,
        )
      }
      if ('refused' in admitted) {
        const whose = admitted.refused === 'caller' ? 'your account' : 'your network'
        const what = anonymous ? 'firehose streams' : 'change streams'
        return refuse(
          tooMany(admitted.limit, `${admitted.limit}`, Date.now() + RETRY_OPEN_SECONDS * 1000,
            `Too many open ${what} for ${whose}: this host allows ${admitted.limit} at once. Close one, or try again in ${RETRY_OPEN_SECONDS} seconds.`),
          who,
        )
      }
      if (socket.destroyed) return connections.release(admitted)
      sub.wss.options.maxPayload = MAX_CLIENT_MESSAGE_BYTES
      sub.wss.handleUpgrade(req, socket, head, (ws: StreamSocket) => {
        log(101, who)
        connections.bind(admitted, ws)
        sub.wss.emit('connection', ws, req)
      })
      // A request ws refused (not a WebSocket handshake) never reaches the callback.
      socket.once('close', () => {
        if (!admitted.socket) connections.release(admitted)
      })
    }

    void (async () => {
      let ip: string
      try {
        ip = ipKey(proxyaddr(req, app.get('trust proxy fn')))
      } catch {
        ip = ipKey(req.socket.remoteAddress)
      }
      const ipCounter = `ip ${ip}`
      // The public firehose reads no credentials, so a header claiming some buys nothing:
      // it is counted against its address like any request without them.
      const isPublic = nsid === PUBLIC_FIREHOSE
      const hasCredentials = !isPublic && !!req.headers.authorization
      /** Counts a request whose credentials were not accepted against its address (a bare one was counted on arrival). */
      const countFailure = () => {
        if (hasCredentials && rateLimits.unauthenticated > 0) void counters.hit(ipCounter, 1, windowMs).catch(() => {})
      }
      if (rateLimits.unauthenticated > 0) {
        const status = hasCredentials ? await counters.peek(ipCounter, windowMs) : await counters.hit(ipCounter, 1, windowMs)
        if (status.count > rateLimits.unauthenticated || (hasCredentials && status.count >= rateLimits.unauthenticated)) {
          return refuse(
            tooMany(rateLimits.unauthenticated, `${rateLimits.unauthenticated};w=${rateLimits.windowSeconds}`, status.resetAt,
              `Too many requests without valid credentials from your network: this host allows ${limitInWords(rateLimits.unauthenticated, rateLimits.windowSeconds)}. Try again ${waitInWords(status.resetAt - Date.now())}.`),
          )
        }
      }

      // As for any query: parameters first, then credentials.
      const problem = paramsProblem(xrpc.xrpc.lex, nsid!, req.url ?? '')
      if (problem) {
        countFailure()
        return refuse({ status: 400, error: 'InvalidRequest', message: problem })
      }

      // The groups' public firehose (src/host/repo/firehose.ts) is public, as a PDS's is:
      // no credentials; its open streams are counted per address apart from change streams.
      if (isPublic) return admitAndOpen(ANONYMOUS, ip)

      let caller: string
      try {
        caller = (await verifyServiceAuth(ctx, req as never)).did
      } catch (err) {
        countFailure()
        const xrpcErr = XRPCError.fromError(err)
        const { error = 'AuthRequired', message = 'Authentication failed' } = xrpcErr.payload
        return refuse({ status: xrpcErr.type, error, message, ...(xrpcErr.type === 503 ? { headers: { 'Retry-After': RETRY_AFTER_S } } : {}) })
      }

      if (rateLimits.queries > 0) {
        const { count, resetAt } = await counters.hit(`queries ${caller}`, 1, windowMs)
        if (count > rateLimits.queries) {
          return refuse(
            tooMany(rateLimits.queries, `${rateLimits.queries};w=${rateLimits.windowSeconds}`, resetAt,
              `Too many queries: this host allows ${limitInWords(rateLimits.queries, rateLimits.windowSeconds)} per account (each change stream opened counts as one). Try again ${waitInWords(resetAt - Date.now())}.`),
            caller,
          )
        }
      }

      admitAndOpen(caller, ip)
    })().catch((err: unknown) => {
      if (socket.destroyed) return
      if (isDatabaseBusy(err)) return refuse({ status: 503, error: 'ServiceUnavailable', message: DATABASE_BUSY_MESSAGE, headers: { 'Retry-After': RETRY_AFTER_S } })
      ctx.logger.error({ err }, 'change stream: the upgrade failed')
      refuse({ status: 500, error: 'InternalServerError', message: 'Internal Server Error' })
    })
  }
}
