/** Latency and throughput figures for one measured phase. */
export interface Summary {
  /** Requests that got a 2xx answer. */
  ok: number
  /** Requests that did not (any other status, or a network error). */
  failed: number
  /** Wall time from the first request sent to the last answer, in seconds. */
  seconds: number
  /** Successful requests per second of wall time. */
  perSecond: number
  p50: number
  p99: number
  max: number
}

/** The nearest-rank percentile of ascending `sorted` (p in 0..100). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!
}

export function summarize(latenciesMs: number[], failed: number, seconds: number): Summary {
  const sorted = Float64Array.from(latenciesMs).sort()
  return {
    ok: latenciesMs.length,
    failed,
    seconds,
    perSecond: latenciesMs.length / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : NaN,
  }
}
