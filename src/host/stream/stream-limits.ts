/**
 * The streams' limits (`--stream-limits`): how many streams one caller and one address
 * may hold open (the change stream with credentials, the public firehose without), how long a frame may wait for a client to take it, and how
 * often the host pings. See docs/host.md, "The change stream".
 */
export interface StreamLimits {
  /** Open streams per account (the caller's DID), on each host process. */
  perCaller: number
  /** Open streams per IP address (IPv6: per /64), on each host process. */
  perIp: number
  /**
   * Open streams without credentials (the public firehose, com.atproto.sync.subscribeRepos)
   * per IP address (IPv6: per /64), on each host process: a relay or an AppView follows it
   * with one or two.
   */
  anonymousPerIp: number
  /** Open streams on each host process, whoever holds them. */
  total: number
  /** Seconds a frame may wait to be taken by the client before it is dropped as too slow. */
  stallSeconds: number
  /** Seconds between pings; a client that has not answered the last one by the next is gone. */
  heartbeatSeconds: number
  /** Entries each process keeps in memory for streams that are keeping up. */
  window: number
}

export const DEFAULT_STREAM_LIMITS: Readonly<StreamLimits> = {
  perCaller: 8,
  perIp: 256,
  anonymousPerIp: 8,
  total: 20_000,
  stallSeconds: 30,
  heartbeatSeconds: 30,
  window: 10_000,
}

const NAMES: Record<string, keyof StreamLimits> = {
  caller: 'perCaller',
  ip: 'perIp',
  anonymous: 'anonymousPerIp',
  total: 'total',
  stall: 'stallSeconds',
  heartbeat: 'heartbeatSeconds',
  window: 'window',
}

/** `--stream-limits` text: comma-separated `name=number` changing some of the defaults, e.g. `caller=4,stall=10`. */
export function parseStreamLimits(text: string | undefined): StreamLimits {
  const limits = { ...DEFAULT_STREAM_LIMITS }
  if (text === undefined || text.trim() === '') return limits
  for (const part of text.split(',')) {
    const [name, value, ...rest] = part.trim().split('=')
    const key = NAMES[name ?? '']
    const n = Number(value)
    if (!key || rest.length || value === undefined || !/^\d{1,9}(\.\d{1,3})?$/.test(value.trim()) || n <= 0) {
      throw new Error(`--stream-limits: "${part.trim()}" is not name=number (above 0) with name one of ${Object.keys(NAMES).join(', ')}`)
    }
    if ((key === 'perCaller' || key === 'perIp' || key === 'anonymousPerIp' || key === 'total' || key === 'window') && !Number.isInteger(n)) throw new Error(`--stream-limits: ${name} must be a whole number`)
    limits[key] = n
  }
  return limits
}
