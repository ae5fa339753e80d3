import { WebSocket } from 'ws'

/** How often the app checks that the connection is alive (a ping; any frame counts as an answer). */
export const HEARTBEAT_MS = 30_000
/** How long the upgrade may take before the attempt counts as failed. */
const HANDSHAKE_MS = 15_000
/** A change frame is a few hundred bytes; anything near this is not one. */
const MAX_FRAME_BYTES = 1 << 20
/** How much of a refused upgrade's answer is read for its error name. */
const MAX_REFUSAL_BYTES = 4_096

/** How one connection ended. */
export type SocketEnd =
  /** The host answered the upgrade with an HTTP error (no stream, not allowed, too many). */
  | { kind: 'refused'; status: number; error: string | null; message: string | null; retryAfterS: number | null }
  /** The connection could not be made, or it was open and then lost or closed. */
  | { kind: 'dropped'; opened: boolean; reason: string }
  /** This side closed it (renewing the token, signing out, quitting). */
  | { kind: 'closed' }

export interface ChangeSocket {
  /** Closes the connection; `onEnd` hears `closed`. */
  close(): void
}

/**
 * One WebSocket to a host's subscription method: the upgrade carries the service-auth
 * token in its Authorization header (never in the address, which logs may keep), frames
 * arrive as bytes, a silent connection is pinged and dropped if it stays silent, and the end is reported
 * once, saying how it ended. Reconnecting is the caller's choice (live-connection.ts).
 */
export function openChangeSocket(opts: {
  url: URL
  token: string
  onOpen: () => void
  onFrame: (bytes: Uint8Array) => void
  onEnd: (end: SocketEnd) => void
  heartbeatMs?: number
}): ChangeSocket {
  const ws = new WebSocket(opts.url, {
    headers: { authorization: `Bearer ${opts.token}` },
    handshakeTimeout: HANDSHAKE_MS,
    maxPayload: MAX_FRAME_BYTES,
  })
  let opened = false
  let ended = false
  let heard = true
  let pinged = false
  let heartbeat: ReturnType<typeof setInterval> | undefined
  const end = (how: SocketEnd) => {
    if (ended) return
    ended = true
    if (heartbeat) clearInterval(heartbeat)
    opts.onEnd(how)
  }

  ws.on('open', () => {
    opened = true
    // The host pings every 30 s too: a connection that brought anything (a ping, a frame)
    // in the last interval is alive. Only a silent one is pinged, and closed if the
    // silence lasts another interval (a laptop that slept, a network that changed).
    heartbeat = setInterval(() => {
      if (heard) {
        heard = false
        pinged = false
      } else if (pinged) {
        end({ kind: 'dropped', opened, reason: 'the host stopped answering' })
        ws.terminate()
      } else {
        pinged = true
        ws.ping()
      }
    }, opts.heartbeatMs ?? HEARTBEAT_MS)
    heartbeat.unref?.()
    opts.onOpen()
  })
  const alive = () => (heard = true)
  ws.on('pong', alive)
  ws.on('ping', alive)
  ws.on('message', (data, isBinary) => {
    heard = true
    if (!ended && isBinary) opts.onFrame(new Uint8Array(data.buffer, data.byteOffset, data.byteLength))
  })
  ws.on('unexpected-response', (_req, res) => {
    const chunks: Buffer[] = []
    let size = 0
    res.on('data', (c: Buffer) => {
      if (size < MAX_REFUSAL_BYTES) chunks.push(c)
      size += c.length
    })
    res.on('end', () => {
      const body = parseError(Buffer.concat(chunks).subarray(0, MAX_REFUSAL_BYTES).toString('utf8'))
      const retry = Number(res.headers['retry-after'] ?? res.headers['ratelimit-reset'])
      end({ kind: 'refused', status: res.statusCode ?? 0, ...body, retryAfterS: Number.isFinite(retry) && retry > 0 ? retry : null })
      ws.terminate()
    })
    res.on('error', () => end({ kind: 'dropped', opened, reason: 'the host’s answer was cut off' }))
  })
  ws.on('error', (err) => end({ kind: 'dropped', opened, reason: plainReason(err) }))
  ws.on('close', (code, reason) => end({ kind: 'dropped', opened, reason: closeReason(code, reason.toString('utf8').slice(0, 200)) }))

  return {
    close() {
      end({ kind: 'closed' })
      if (ws.readyState === WebSocket.OPEN) ws.close(1000)
      else ws.terminate()
    },
  }
}

/** The XRPC error body of a refused upgrade, when it has one. */
function parseError(text: string): { error: string | null; message: string | null } {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown }
    return { error: typeof body.error === 'string' ? body.error : null, message: typeof body.message === 'string' ? body.message : null }
  } catch {
    return { error: null, message: null }
  }
}

/** Why the connection closed, in words (close codes are not). */
function closeReason(code: number, reason: string): string {
  if (code === 1006) return 'the connection was cut (the host may have stopped, or the network changed)'
  if (code === 1001) return 'the host is restarting or going away'
  if (code === 1013 || code === 1012) return 'the host is busy or restarting'
  return reason ? `the host closed it (${reason})` : 'the host closed it'
}

/** Why a connection failed, in words (system error codes are not). */
function plainReason(err: Error & { code?: string }): string {
  if (err.code === 'ECONNREFUSED') return 'the host refused the connection (it may be down)'
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return 'the host’s address could not be found (offline?)'
  if (err.code === 'ECONNRESET') return 'the connection was cut'
  if (/handshake has timed out/i.test(err.message)) return 'the host took too long to answer'
  return err.message
}
