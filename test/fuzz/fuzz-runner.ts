import fc from 'fast-check'
import { expect } from 'vitest'
import type { FuzzHost, RawResponse } from './fuzz-host.js'
import { readLexicons } from './lexicon-arbitraries.js'

/**
 * How much to fuzz and how to replay a failure, from the environment:
 *
 * - `CONVENE_FUZZ_RUNS`: cases over all properties (default 3,000, what `npm test` runs;
 *   `npm run fuzz` sets 20,000). Each property gets its share.
 * - `CONVENE_FUZZ_SEED` (and `CONVENE_FUZZ_PATH`): replay a failure; a failing property
 *   prints both. The seed alone replays the whole run (with the same number of runs);
 *   with the path, only the shrunk counterexample of one property (pick it with -t).
 * - `CONVENE_FUZZ_TIMEOUT_MS`: how long one request may take before it counts as a hang
 *   (default 10 s).
 */
const envInt = (name: string, fallback: number) => {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n)) throw new Error(`${name} must be a whole number, not "${raw}"`)
  return n
}

export const FUZZ = {
  runs: envInt('CONVENE_FUZZ_RUNS', 3_000),
  // One seed for the whole run, every property, so that it alone replays the run.
  seed: process.env.CONVENE_FUZZ_SEED ? envInt('CONVENE_FUZZ_SEED', 0) : Math.floor(Math.random() * 2 ** 31),
  path: process.env.CONVENE_FUZZ_PATH || undefined,
  requestTimeoutMs: envInt('CONVENE_FUZZ_TIMEOUT_MS', 10_000),
}

/** This property's number of cases: its share of the total. */
export const runsFor = (share: number) => Math.max(1, Math.round(FUZZ.runs * share))

/** A vitest timeout that fits `runs` cases (generous: two shared cores, shrinking). */
export const testTimeoutFor = (runs: number) => 90_000 + runs * 250

/**
 * What every answer must be, whatever was sent: below 500, and a refusal (4xx) is the
 * spec's JSON `{error, message}`. HEAD answers carry no body, and 431 (headers too
 * large) comes from Node's HTTP parser before any of the host's code runs. The one 5xx
 * allowed: 501 MethodNotImplemented for a method no lexicon defines (XRPC's answer).
 */
export function assertSound({ res, httpMethod, unknownMethod, shape }: Answer, host: FuzzHost): void {
  if (host.exitCode() !== null) throw new Error(`the host process exited (code ${host.exitCode()}):\n${host.logTail()}`)
  // (HEAD answers have no body to name it.)
  if (unknownMethod && res.status === 501 && (httpMethod === 'HEAD' || errorName(res) === 'MethodNotImplemented')) return
  if (res.status >= 500) throw new Error(`answered ${res.status}: ${res.text.slice(0, 500)}`)
  // Status 0: an oversized request cut off by the server (see exchangeOrClosed).
  if (res.status < 400 || httpMethod === 'HEAD' || res.status === 431) return
  // The OAuth endpoints and pages answer their own way; the per-address limit and paths
  // nobody serves (another method) answer as everything else does, checked below.
  const shared = res.status === 429 || res.status === 404
  if (shape === 'oauth' && !shared) return assertOAuthRefusal(res)
  if (shape === 'page' && !shared) return assertPageRefusal(res)
  let body: unknown
  try {
    body = JSON.parse(res.text)
  } catch {
    throw new Error(`answered ${res.status} with a body that is not JSON: ${res.text.slice(0, 300)}`)
  }
  const { error, message } = (body ?? {}) as Record<string, unknown>
  if (typeof error !== 'string' || !error || typeof message !== 'string') {
    throw new Error(`answered ${res.status} without {error, message}: ${res.text.slice(0, 300)}`)
  }
  const allowed = ERROR_NAMES[res.status]
  if (allowed && !allowed.has(error)) {
    throw new Error(`answered ${res.status} ${error}, not a name a peer knows for ${res.status} (${[...allowed].join(', ')}): ${res.text.slice(0, 300)}`)
  }
}

/**
 * Error names peers can rely on, by status: for 400, what the lexicons declare (spec
 * section 7) and `InvalidRequest` for malformed input; for 413 and 415, the XRPC names;
 * 404 (a path outside /xrpc/) `NotFound`.
 * Other statuses (401's many service-auth names, 429) are checked for shape only.
 */
const ERROR_NAMES: Record<number, Set<string>> = {
  400: new Set(['InvalidRequest', ...declaredErrorNames()]),
  404: new Set(['NotFound']),
  413: new Set(['PayloadTooLarge']),
  415: new Set(['UnsupportedMediaType']),
}

function declaredErrorNames(): string[] {
  const names: string[] = []
  for (const doc of readLexicons().values()) {
    for (const e of (doc.defs.main?.errors as { name: string }[] | undefined) ?? []) names.push(e.name)
  }
  return names
}

const errorName = (res: RawResponse): string | undefined => {
  try {
    const error = (JSON.parse(res.text) as { error?: unknown }).error
    return typeof error === 'string' ? error.slice(0, 40) : undefined
  } catch {
    return undefined
  }
}

export interface Answer {
  res: RawResponse
  httpMethod: string
  /** The path names no lexicon method: XRPC's 501 MethodNotImplemented is then right. */
  unknownMethod?: boolean
  /** How refusals look: XRPC's `{error, message}` (the default), OAuth's, or an HTML page. */
  shape?: 'xrpc' | 'oauth' | 'page'
}

/** The error names of the OAuth endpoints (RFC 6749 section 5.2, RFC 9126, RFC 9449). */
const OAUTH_ERRORS = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'unsupported_response_type',
  'invalid_scope',
  'access_denied',
  'invalid_request_uri',
  'request_not_supported',
  'invalid_dpop_proof',
  'use_dpop_nonce',
])

/** An OAuth endpoint's refusal: JSON `{error, error_description}` with an OAuth error name (never `server_error`). */
function assertOAuthRefusal(res: RawResponse): void {
  let body: Record<string, unknown>
  try {
    body = (JSON.parse(res.text) ?? {}) as Record<string, unknown>
  } catch {
    throw new Error(`answered ${res.status} with a body that is not JSON: ${res.text.slice(0, 300)}`)
  }
  if (typeof body.error !== 'string' || !OAUTH_ERRORS.has(body.error) || typeof body.error_description !== 'string') {
    throw new Error(`answered ${res.status} without an OAuth {error, error_description}: ${res.text.slice(0, 300)}`)
  }
}

/** A page's refusal: an HTML page that says why (its alert), as the person sees it. */
function assertPageRefusal(res: RawResponse): void {
  if (!String(res.headers['content-type']).startsWith('text/html') || !res.text.includes('role="alert"')) {
    throw new Error(`answered ${res.status} without a page saying why: ${String(res.headers['content-type'])} ${res.text.slice(0, 300)}`)
  }
}

const clip = (s: string, n = 2_000) => (s.length > n ? `${s.slice(0, n)}… (${s.length} characters)` : s)

/**
 * Runs one property against the host: `exec` sends the request a generated value
 * describes. Logs how the host answered (status counts show how deep the cases got);
 * on failure, throws with the counterexample and how to replay it.
 */
export async function fuzzProperty<T>(
  host: FuzzHost,
  arb: fc.Arbitrary<T>,
  exec: (value: T) => Promise<Answer | Answer[]>,
  numRuns: number,
): Promise<void> {
  // The test's own title, so that the replay line below selects it with -t.
  const name = (expect.getState().currentTestName ?? 'fuzz').split(' > ').pop()!
  const statuses = new Map<string, number>()
  const started = Date.now()
  const details = await fc.check(
    fc.asyncProperty(arb, async (value) => {
      const answers = await exec(value)
      for (const answer of Array.isArray(answers) ? answers : [answers]) {
        const { res } = answer
        const key = `${res.status}${errorName(res) ? ` ${errorName(res)}` : ''}`
        statuses.set(key, (statuses.get(key) ?? 0) + 1)
        if (process.env.CONVENE_FUZZ_DEBUG) console.log(res.status, res.text.slice(0, 200))
        assertSound(answer, host)
      }
    }),
    { numRuns, seed: FUZZ.seed, path: FUZZ.path },
  )
  const counts = [...statuses].sort(([a], [b]) => a.localeCompare(b)).map(([s, n]) => `${s}×${n}`).join(', ')
  console.log(`[fuzz] ${name}: ${details.numRuns} cases in ${((Date.now() - started) / 1000).toFixed(1)} s (seed ${details.seed}); answers (with shrinking) ${counts}`)
  if (!details.failed) return
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)
  throw new Error(
    [
      `fuzz property "${name}" failed after ${details.numRuns} cases (shrunk ${details.numShrinks} times):`,
      `  ${clip(error, 1_000)}`,
      `counterexample: ${clip(fc.stringify(details.counterexample))}`,
      `replay: npm run fuzz -- --seed ${details.seed} --path '${details.counterexamplePath ?? ''}' -t '${name}'`,
      `   (or: CONVENE_FUZZ_SEED=${details.seed} CONVENE_FUZZ_PATH='${details.counterexamplePath ?? ''}' npx vitest run test/fuzz -t '${name}')`,
      `host log:\n${host.logTail(20)}`,
    ].join('\n'),
  )
}
