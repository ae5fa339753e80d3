import type { IncomingMessage } from 'node:http'
import type { Logger } from 'pino'
import { ErrorFrame, type ErrorFrameBody } from '@atproto/xrpc-server'
import type { StreamLimits } from './stream-limits.js'
import type { StreamProgress } from './subscription.js'

/** RFC 6455 close code for a policy violation, as xrpc-server closes after an error frame. */
const POLICY = 1008
/** A dropped client that does not take its close frame within this long is cut off. */
const CLOSE_GRACE_MS = 10_000
/** Beyond one frame in flight and the pings, nothing should wait in a socket's buffer. */
const MAX_BUFFERED_BYTES = 1024 * 1024

/** The parts of a `ws` WebSocket the host uses (xrpc-server hands them over). */
export interface StreamSocket {
  readonly bufferedAmount: number
  ping(): void
  terminate(): void
  close(code?: number, reason?: string): void
  send(data: Uint8Array, options: { binary: boolean }): void
  on(event: 'pong' | 'close' | 'message', listener: () => void): void
}

/** One open stream: who holds it, how far it got, whether it still answers. */
export interface StreamConnection extends StreamProgress {
  caller: string
  ip: string
  socket?: StreamSocket
  /** Ended by the host (too slow, shutting down): the stream stops producing. */
  readonly stop: AbortController
  answeredPing: boolean
  lastPing: number
  openedAt: number
}

export type Refusal = { refused: 'caller' | 'ip' | 'total'; limit: number }

/** Who holds a stream opened without credentials (the public firehose). */
export const ANONYMOUS = 'anonymous'


/**
 * The streams this process has open: counted per caller and per address (the limits),
 * watched for clients that stopped reading or answering. xrpc-server writes one frame at
 * a time and waits until the socket took it before the stream makes the next, so what a
 * slow client costs the host is one frame and the kernel's socket buffer; a frame that
 * waits longer than `stallSeconds` (or a socket buffering more than one frame's worth
 * plus pings) ends the stream with a `ConsumerTooSlow` error frame naming the cursor to
 * resume from: that of the last entry sent before it, so a client that reads on to the
 * error has everything up to it. Every `heartbeatSeconds` the host pings; a client that
 * did not answer the previous ping is gone, and its socket is closed.
 */
export class StreamConnections {
  private readonly open = new Set<StreamConnection>()
  private readonly perCaller = new Map<string, number>()
  private readonly perIp = new Map<string, number>()
  private readonly byRequest = new WeakMap<IncomingMessage, StreamConnection>()
  private readonly sweeper: NodeJS.Timeout

  constructor(
    private readonly limits: StreamLimits,
    private readonly logger: Logger,
  ) {
    const tick = Math.min(1_000, Math.max(50, (Math.min(limits.stallSeconds, limits.heartbeatSeconds) * 1000) / 4))
    this.sweeper = setInterval(() => this.sweep(), tick)
    this.sweeper.unref()
  }

  /** How many streams are open (or being opened). */
  get count(): number {
    return this.open.size
  }

  /**
   * Counts a new stream for `caller` from `ip`, or says which limit refuses it. A stream
   * without credentials (`caller` {@link ANONYMOUS}) is counted against its address's
   * anonymous allowance, kept apart so readers of the public firehose cannot use up an
   * address's change streams, nor the other way round; both count towards the total.
   */
  admit(req: IncomingMessage, caller: string, ip: string): StreamConnection | Refusal {
    const anonymous = caller === ANONYMOUS
    const ipKey = anonymous ? `${ANONYMOUS} ${ip}` : ip
    if (!anonymous && (this.perCaller.get(caller) ?? 0) >= this.limits.perCaller) return { refused: 'caller', limit: this.limits.perCaller }
    const ipLimit = anonymous ? this.limits.anonymousPerIp : this.limits.perIp
    if ((this.perIp.get(ipKey) ?? 0) >= ipLimit) return { refused: 'ip', limit: ipLimit }
    if (this.open.size >= this.limits.total) return { refused: 'total', limit: this.limits.total }
    const now = Date.now()
    const conn: StreamConnection = { caller, ip: ipKey, cursor: '', sendingSince: 0, stop: new AbortController(), answeredPing: true, lastPing: now, openedAt: now }
    this.open.add(conn)
    if (!anonymous) this.perCaller.set(caller, (this.perCaller.get(caller) ?? 0) + 1)
    this.perIp.set(ipKey, (this.perIp.get(ipKey) ?? 0) + 1)
    this.byRequest.set(req, conn)
    return conn
  }

  /** The stream admitted for this upgrade request. */
  of(req: IncomingMessage): StreamConnection | undefined {
    return this.byRequest.get(req)
  }

  /** The upgrade went through: watch the socket; `closed` once it closes. */
  bind(conn: StreamConnection, socket: StreamSocket): void {
    conn.socket = socket
    socket.on('pong', () => {
      conn.answeredPing = true
    })
    // Clients have nothing to say on this stream; one that talks is not one of ours.
    socket.on('message', () => socket.terminate())
    socket.on('close', () => this.release(conn))
  }

  /** Uncounts a stream whose upgrade failed or whose socket closed. */
  release(conn: StreamConnection): void {
    if (!this.open.delete(conn)) return
    conn.stop.abort()
    const less = (map: Map<string, number>, key: string) => {
      const n = (map.get(key) ?? 1) - 1
      if (n > 0) map.set(key, n)
      else map.delete(key)
    }
    if (conn.caller !== ANONYMOUS) less(this.perCaller, conn.caller)
    less(this.perIp, conn.ip)
    this.logger.info({ caller: conn.caller, ms: Date.now() - conn.openedAt }, 'change stream closed')
  }

  /** Ends every stream (the host is stopping). */
  closeAll(): void {
    clearInterval(this.sweeper)
    for (const conn of [...this.open]) {
      conn.stop.abort()
      conn.socket?.terminate()
      this.release(conn)
    }
  }

  private sweep(): void {
    const now = Date.now()
    for (const conn of this.open) {
      const socket = conn.socket
      if (!socket || conn.stop.signal.aborted) continue
      const stalled = conn.sendingSince > 0 && now - conn.sendingSince > this.limits.stallSeconds * 1000
      if (stalled || socket.bufferedAmount > MAX_BUFFERED_BYTES) {
        this.dropTooSlow(conn, socket)
        continue
      }
      if (now - conn.lastPing >= this.limits.heartbeatSeconds * 1000) {
        if (!conn.answeredPing) {
          this.logger.info({ caller: conn.caller }, 'change stream: no answer to the last ping; closing')
          conn.stop.abort()
          socket.terminate()
          continue
        }
        conn.answeredPing = false
        conn.lastPing = now
        socket.ping()
      }
    }
  }

  private dropTooSlow(conn: StreamConnection, socket: StreamSocket): void {
    conn.stop.abort()
    const body = {
      error: 'ConsumerTooSlow',
      message: `You did not read the stream fast enough, so it was closed; connect again with cursor=${conn.cursor} to carry on`,
      cursor: conn.cursor,
    } as ErrorFrameBody
    this.logger.info({ caller: conn.caller, cursor: conn.cursor }, 'change stream: client too slow; dropped')
    socket.send(new ErrorFrame(body).toBytes(), { binary: true })
    socket.close(POLICY, 'ConsumerTooSlow')
    setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref()
  }
}
