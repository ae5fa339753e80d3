/**
 * The load generator's worker thread (see load.ts): sends prepared requests over
 * keep-alive HTTP/1.1 connections, `concurrency` at a time, and times each answer.
 */
import http from 'node:http'
import { performance } from 'node:perf_hooks'
import { parentPort, workerData } from 'node:worker_threads'
import { dpopProof } from '../../test/support/dpop.js'
import type { LoadJob, PreparedRequest, WorkerAnswer } from './load.js'

interface Answer {
  status: number
  nonce?: string
  body: string
}

const job = workerData as LoadJob
const base = new URL(job.base)
const agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency })

function send(req: PreparedRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...req.headers }
    if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body)
    const r = http.request({ agent, host: base.hostname, port: base.port, method: req.method, path: req.path, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const nonce = res.headers['dpop-nonce']
        resolve({ status: res.statusCode ?? 0, nonce: typeof nonce === 'string' ? nonce : undefined, body: Buffer.concat(chunks).toString('utf8') })
      })
      res.on('error', reject)
    })
    r.setTimeout(30_000, () => r.destroy(new Error('no answer within 30 s')))
    r.on('error', reject)
    r.end(req.body)
  })
}

async function main(): Promise<WorkerAnswer> {
  const latencies: number[] = []
  const failures: string[] = []
  let failed = 0
  let nonceRetries = 0
  let next = 0
  let nonce: string | undefined
  const started = performance.now()
  const deadline = started + job.maxSeconds * 1000

  const lane = async () => {
    while (next < job.requests.length && performance.now() < deadline) {
      const req = job.requests[next++]!
      const t0 = performance.now()
      try {
        let res = await send(req)
        if (res.nonce) nonce = res.nonce
        if (job.dpop && res.status === 401 && res.nonce) {
          // The nonce rotated: sign this request's proof again with the one just sent.
          nonceRetries++
          const proof = await dpopProof(job.dpop.key, { htm: req.method, htu: job.dpop.htu, nonce, accessToken: job.dpop.accessToken })
          res = await send({ ...req, headers: { ...req.headers, dpop: proof } })
          if (res.nonce) nonce = res.nonce
        }
        if (res.status >= 200 && res.status < 300) latencies.push(performance.now() - t0)
        else {
          failed++
          if (failures.length < 5) failures.push(`${res.status} ${res.body.slice(0, 300)}`)
        }
      } catch (err) {
        failed++
        if (failures.length < 5) failures.push(`error ${(err as Error).message}`)
      }
    }
  }
  await Promise.all(Array.from({ length: job.concurrency }, lane))
  const seconds = (performance.now() - started) / 1000
  agent.destroy()
  return { latencies, failed, seconds, nonceRetries, failures, sent: next }
}

main().then(
  (answer) => parentPort!.postMessage(answer),
  (err: unknown) => {
    throw err
  },
)
