/**
 * bench:live's subscribers, in a worker thread of their own (so their event loop is not
 * the one that sends the burst or serves the PLC and PDS): `count` change streams, stream
 * i with tokens[i % tokens.length] following groups[i % groups.length], each noting when
 * every `group.configured` change frame came (ms since the epoch, comparable across
 * threads). Posts 'open' once all are open; on 'collect' waits for `expected` frames (or
 * two minutes), posts the arrival times per stream, and closes them.
 */
import { performance } from 'node:perf_hooks'
import { parentPort, workerData } from 'node:worker_threads'
import { WebSocket } from 'ws'
import { decodeFrame } from '../../src/main/core/live/frames.js'
import { mapLimit } from './xrpc.js'

export interface StreamClientsJob {
  hostUrl: string
  tokens: string[]
  groups: string[]
  count: number
}
export type StreamClientsMessage = { type: 'open' } | { type: 'frames'; deliveries: number[][] } | { type: 'failed'; message: string }

const job = workerData as StreamClientsJob
const now = () => performance.timeOrigin + performance.now()
const deliveries: number[][] = Array.from({ length: job.count }, () => [])
let received = 0

function open(i: number): Promise<WebSocket> {
  const url = new URL('/xrpc/example.groups.subscribeChanges', job.hostUrl.replace(/^http/, 'ws'))
  url.searchParams.append('groups', job.groups[i % job.groups.length]!)
  const ws = new WebSocket(url, { headers: { authorization: `Bearer ${job.tokens[i % job.tokens.length]!}` }, perMessageDeflate: false })
  ws.on('message', (data) => {
    const at = now()
    const frame = decodeFrame(new Uint8Array(data.buffer, data.byteOffset, data.byteLength))
    if (frame.op === 'message' && frame.type === '#change' && (frame.body.change as { kind?: string }).kind === 'group.configured') {
      deliveries[i]!.push(at)
      received++
    }
  })
  return new Promise((resolve, reject) => {
    ws.on('open', () => resolve(ws))
    ws.on('unexpected-response', (_req, res) => reject(new Error(`stream ${i} refused: ${res.statusCode}`)))
    ws.on('error', reject)
  })
}

async function main() {
  const sockets = await mapLimit(Array.from({ length: job.count }, (_, i) => i), 64, open)
  parentPort!.postMessage({ type: 'open' } satisfies StreamClientsMessage)
  const expected = await new Promise<number>((resolve) => parentPort!.once('message', (m: { expected: number }) => resolve(m.expected)))
  const deadline = Date.now() + 120_000
  while (received < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  parentPort!.postMessage({ type: 'frames', deliveries } satisfies StreamClientsMessage)
  for (const ws of sockets) ws.terminate()
}

main().catch((err: unknown) => parentPort!.postMessage({ type: 'failed', message: (err as Error).message } satisfies StreamClientsMessage))
