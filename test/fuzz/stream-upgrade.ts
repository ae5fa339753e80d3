import { randomBytes } from 'node:crypto'
import http from 'node:http'
import { decodeAll } from '@atproto/lex-cbor'
import type { RawResponse } from './fuzz-host.js'

/** Node refuses to send control characters and code points past U+00FF in a header. */
const headerSafe = (value: string) => value.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?')

/** How a fuzzed handshake departs from a sound one. */
export type Handshake = 'sound' | 'no key' | 'old version' | 'not websocket'

/**
 * A WebSocket upgrade request for an XRPC subscription, with full control of the
 * handshake, answered as the fuzz properties judge answers: a refused upgrade is its
 * HTTP answer; an accepted one (101) is judged by its first frame, read for `waitMs`:
 * an error frame counts as a 400 carrying its `{error, message}` (500 when it names an
 * internal error), anything else, or silence (a stream with nothing to say yet), as 101.
 * The socket is closed either way.
 */
export function upgrade(baseUrl: string, req: { path: string; headers: Record<string, string>; handshake: Handshake }, timeoutMs: number, waitMs = 200): Promise<RawResponse> {
  const url = new URL(baseUrl)
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) headers[name] = headerSafe(value)
  headers.connection = 'Upgrade'
  headers.upgrade = req.handshake === 'not websocket' ? 'h2c' : 'websocket'
  headers['sec-websocket-version'] = req.handshake === 'old version' ? '8' : '13'
  if (req.handshake !== 'no key') headers['sec-websocket-key'] = randomBytes(16).toString('base64')
  return new Promise((resolve, reject) => {
    const r = http.request({ host: url.hostname, port: url.port, method: 'GET', path: req.path, headers, agent: false })
    const timer = setTimeout(() => r.destroy(new Error(`no answer to the upgrade within ${timeoutMs} ms (a hang)`)), timeoutMs)
    const done = (res: RawResponse) => {
      clearTimeout(timer)
      resolve(res)
    }
    r.on('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    r.on('response', (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    r.on('upgrade', (res, socket, head) => {
      let buffered = head
      const settle = (answer: RawResponse) => {
        clearTimeout(quiet)
        socket.destroy()
        done(answer)
      }
      const quiet = setTimeout(() => settle({ status: 101, headers: res.headers, text: '' }), waitMs)
      const tryFrame = () => {
        const payload = firstFrame(buffered)
        if (payload === undefined) return
        if (payload === null) return settle({ status: 101, headers: res.headers, text: '' })
        try {
          const [header, body] = [...decodeAll(payload)] as [{ op?: number }, { error?: string; message?: string }]
          if (header.op !== -1) return settle({ status: 101, headers: res.headers, text: '' })
          const internal = body.error === 'InternalServerError' || body.error === 'Unknown'
          settle({ status: internal ? 500 : 400, headers: res.headers, text: JSON.stringify(body) })
        } catch (err) {
          settle({ status: 500, headers: res.headers, text: `an undecodable frame: ${(err as Error).message}` })
        }
      }
      socket.on('data', (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk])
        tryFrame()
      })
      socket.on('error', () => {})
      tryFrame()
    })
    r.end()
  })
}

/** The payload of the first data frame in `bytes` (undefined: not all here yet; null: a control frame came first). */
function firstFrame(bytes: Buffer): Buffer | null | undefined {
  if (bytes.length < 2) return undefined
  const opcode = bytes[0]! & 0x0f
  let len = bytes[1]! & 0x7f
  let offset = 2
  if (len === 126) {
    if (bytes.length < 4) return undefined
    len = bytes.readUInt16BE(2)
    offset = 4
  } else if (len === 127) {
    if (bytes.length < 10) return undefined
    len = Number(bytes.readBigUInt64BE(2))
    offset = 10
  }
  if (opcode >= 0x8) return null
  if (bytes.length < offset + len) return undefined
  return bytes.subarray(offset, offset + len)
}
