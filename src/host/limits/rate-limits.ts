/**
 * The host's rate limits (decisions 6.4), each a number of calls per window (one hour by
 * default); 0 turns that limit off.
 */
export interface RateLimits {
  /** `createGroup` calls per account (each mints a PLC DID). */
  createGroup: number
  /** Other procedures per account per group. */
  procedures: number
  /** Queries per account. */
  queries: number
  /** Requests without credentials, or whose credentials were refused, per IP address. */
  unauthenticated: number
  /** The window the counts above are per, in seconds. */
  windowSeconds: number
}

export const DEFAULT_RATE_LIMITS: Readonly<RateLimits> = {
  createGroup: 10,
  procedures: 3_000,
  queries: 10_000,
  unauthenticated: 3_000,
  windowSeconds: 3_600,
}

const NAMES: Record<string, keyof RateLimits> = {
  createGroup: 'createGroup',
  procedures: 'procedures',
  queries: 'queries',
  unauthenticated: 'unauthenticated',
  window: 'windowSeconds',
}

/**
 * `--rate-limits` text: `off`, or comma-separated `name=count` changing some of the
 * defaults, e.g. `createGroup=5,queries=20000,window=600`.
 */
export function parseRateLimits(text: string | undefined): RateLimits {
  const limits = { ...DEFAULT_RATE_LIMITS }
  if (text === undefined || text.trim() === '') return limits
  if (text.trim() === 'off') return { ...limits, createGroup: 0, procedures: 0, queries: 0, unauthenticated: 0 }
  for (const part of text.split(',')) {
    const [name, value, ...rest] = part.trim().split('=')
    const key = NAMES[name ?? '']
    const n = Number(value)
    if (!key || rest.length || value === undefined || !/^\d{1,12}$/.test(value.trim())) {
      throw new Error(`--rate-limits: "${part.trim()}" is not name=count with name one of ${Object.keys(NAMES).join(', ')}`)
    }
    if (key === 'windowSeconds' && n < 1) throw new Error('--rate-limits: window must be at least 1 second')
    limits[key] = n
  }
  return limits
}
