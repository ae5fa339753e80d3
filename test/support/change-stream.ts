import type { IncomingMessage } from 'node:http'
import { createRequire } from 'node:module'
import { decodeAll } from '@atproto/lex-cbor'
import type { Caller } from './local-network.js'

/** The parts of a `ws` client the tests use (the package has no types here). */
interface Ws {
  readonly readyState: number
  on(event: 'message', listener: (data: Buffer) => void): void
  on(event: 'open', listener: () => void): void
  on(event: 'close', listener: (code: number, reason: Buffer) => void): void
  on(event: 'error', listener: (err: Error) => void): void
  on(event: 'ping', listener: () => void): void
  on(event: 'unexpected-response', listener: (req: unknown, res: IncomingMessage) => void): void
  pause(): void
  resume(): void
  close(): void
  terminate(): void
}
const { WebSocket } = createRequire(import.meta.url)('ws') as { WebSocket: new (url: string, opts: { headers: Record<string, string> }) => Ws }

export const SUBSCRIBE = 'example.groups.subscribeChanges'
/** The groups' public firehose, opened with `connect(…, { nsid: FIREHOSE })`. */
export const FIREHOSE = 'com.atproto.sync.subscribeRepos'

/** One frame as it came: header `op` (1 message, -1 error), `t` for messages, and the body. */
export interface Frame {
  op: number
  t?: string
  body: Record<string, unknown>
}

export interface ChangeFrame {
  group: string
  change: { seq: number; kind: string; subject?: string; createdAt: string }
  cursor: string
}

/** A refused upgrade: the HTTP answer. */
export interface Refused {
  status: number
  body: { error?: string; message?: string }
  headers: IncomingMessage['headers']
}

/**
 * A change-stream client as an app's main process would be one: `ws` with the service
 * auth in the upgrade request's Authorization header, frames decoded from DAG-CBOR.
 */
export class StreamClient {
  readonly frames: Frame[] = []
  readonly closed: Promise<{ code: number; reason: string }>
  pings = 0
  private waiters: (() => void)[] = []

  private constructor(private readonly ws: Ws) {
    ws.on('message', (data) => {
      const [header, body] = [...decodeAll(data)] as unknown as [{ op: number; t?: string }, Record<string, unknown>]
      this.frames.push({ op: header.op, ...(header.t ? { t: header.t } : {}), body })
      this.poke()
    })
    ws.on('ping', () => this.pings++)
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() })
      this.poke()
    }))
  }

  /** Opens a stream at `hostUrl` with `token`, or gives the HTTP answer that refused it. */
  static async connect(hostUrl: string, token: string | undefined, params: { cursor?: string; groups?: string[]; raw?: string; nsid?: string } = {}): Promise<StreamClient | Refused> {
    const url = new URL(`/xrpc/${params.nsid ?? SUBSCRIBE}`, hostUrl.replace(/^http/, 'ws'))
    if (params.raw !== undefined) url.search = params.raw
    if (params.cursor !== undefined) url.searchParams.set('cursor', params.cursor)
    for (const g of params.groups ?? []) url.searchParams.append('groups', g)
    const ws = new WebSocket(url.toString(), { headers: token ? { authorization: `Bearer ${token}` } : {} })
    return new Promise((resolve, reject) => {
      ws.on('open', () => resolve(new StreamClient(ws)))
      ws.on('unexpected-response', (_req, res) => {
        let text = ''
        res.on('data', (chunk: Buffer) => (text += chunk.toString()))
        res.on('end', () => {
          let body = {}
          try {
            body = JSON.parse(text) as Refused['body']
          } catch {
            body = { message: text }
          }
          resolve({ status: res.statusCode ?? 0, body, headers: res.headers })
        })
      })
      ws.on('error', reject)
    })
  }

  /** As `caller`, with service auth minted by their PDS for the stream. */
  static async open(caller: Caller, params: { cursor?: string; groups?: string[] } = {}, hostUrl = caller.stack.host.url): Promise<StreamClient> {
    const opened = await StreamClient.connect(hostUrl, await caller.serviceAuth(SUBSCRIBE), params)
    if (!(opened instanceof StreamClient)) throw new Error(`the stream was refused: ${opened.status} ${JSON.stringify(opened.body)}`)
    return opened
  }

  /** The #change frames so far. */
  changes(): ChangeFrame[] {
    return this.frames.filter((f) => f.op === 1 && f.t === '#change').map((f) => f.body as unknown as ChangeFrame)
  }

  /** Waits until `test` holds of the frames received (or the stream closed), failing after `ms`. */
  async until(test: (frames: Frame[]) => boolean, ms = 5_000, what = 'a frame'): Promise<void> {
    const deadline = Date.now() + ms
    let done = false
    void this.closed.then(() => (done = true))
    while (!test(this.frames)) {
      if (done || this.ws.readyState === 3) {
        if (test(this.frames)) return
        throw new Error(`the stream closed before ${what}; frames: ${JSON.stringify(this.frames.slice(-5))}`)
      }
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`no ${what} within ${ms} ms; last frames: ${JSON.stringify(this.frames.slice(-5))}`)
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left)
        this.waiters.push(() => {
          clearTimeout(t)
          resolve()
        })
      })
    }
  }

  /** Waits for a #change matching `test`, and returns it. */
  async change(test: (c: ChangeFrame) => boolean, ms = 5_000): Promise<ChangeFrame> {
    await this.until(() => this.changes().some(test), ms, 'that change')
    return this.changes().find(test)!
  }

  pause(): void {
    this.ws.pause()
  }

  resume(): void {
    this.ws.resume()
  }

  close(): void {
    this.ws.close()
  }

  terminate(): void {
    this.ws.terminate()
  }

  private poke() {
    const waiting = this.waiters
    this.waiters = []
    for (const w of waiting) w()
  }
}
