import { Worker } from 'node:worker_threads'
import type { DpopKey } from '../../test/support/dpop.js'
import { summarize, type Summary } from './stats.js'

/** One prepared HTTP request: everything the client needs is made before timing starts. */
export interface PreparedRequest {
  method: 'GET' | 'POST'
  /** Path and query, e.g. `/xrpc/example.groups.requestJoin`. */
  path: string
  headers: Record<string, string>
  body?: string
}

/**
 * What a nonce-challenged DPoP request needs to be signed again (RFC 9449 section 9):
 * the key, the URL and the access token its proof carries the hash of.
 */
export interface DpopRetry {
  key: DpopKey
  htu: string
  accessToken: string
}

export interface LoadJob {
  name: string
  /** Origin, e.g. http://127.0.0.1:1234. */
  base: string
  requests: PreparedRequest[]
  concurrency: number
  /** Stop sending new requests after this long (requests under way finish). */
  maxSeconds: number
  /** When set, a 401 with `DPoP-Nonce` is answered once more with a fresh proof, and counted. */
  dpop?: DpopRetry
}

export interface LoadResult extends Summary {
  name: string
  sent: number
  /** Requests sent again after a DPoP nonce challenge (their latency includes both tries). */
  nonceRetries: number
  /** A few failures, for the report: `status body`. */
  failures: string[]
  /** Whether the time bound, not the request count, ended the phase. */
  timedOut: boolean
}

/** What the worker posts back. */
export interface WorkerAnswer {
  latencies: number[]
  failed: number
  seconds: number
  nonceRetries: number
  failures: string[]
  sent: number
}

/**
 * Runs one phase in a worker thread, so the load generator has its own event loop and
 * does not share one with the PLC and PDS this process serves (the group host is a
 * process of its own). Bounded by the request count and by `maxSeconds`.
 */
export async function runLoad(job: LoadJob): Promise<LoadResult> {
  const worker = new Worker(new URL('./load-worker.ts', import.meta.url), { workerData: job })
  try {
    const answer = await new Promise<WorkerAnswer>((resolve, reject) => {
      worker.once('message', resolve)
      worker.once('error', reject)
      worker.once('exit', (code) => reject(new Error(`load worker for ${job.name} exited with code ${code}`)))
    })
    return {
      name: job.name,
      ...summarize(answer.latencies, answer.failed, answer.seconds),
      sent: answer.sent,
      nonceRetries: answer.nonceRetries,
      failures: answer.failures,
      timedOut: answer.sent < job.requests.length,
    }
  } finally {
    await worker.terminate()
  }
}
