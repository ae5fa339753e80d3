import pino, { type Logger } from 'pino'

/**
 * Anything shaped like a credential is censored even if a future line passes a request,
 * its headers or a config by mistake: the host's lines name methods, statuses and DIDs,
 * never tokens, DPoP proofs, keys or bodies (decisions 6.9).
 */
const REDACT = [
  'req.headers.authorization',
  'req.headers.dpop',
  'req.headers.cookie',
  'headers.authorization',
  'headers.dpop',
  'headers.cookie',
  '*.authorization',
  '*.dpop',
  'req.body',
  'body',
  '*.body',
  'hostKey',
  '*.hostKey',
  'token',
  '*.token',
  'accessJwt',
  '*.accessJwt',
]

/**
 * Lines are written in batches of about this many bytes, and at least every FLUSH_MS:
 * a write per request measurably slowed the host where system calls are dear (about a
 * millisecond a request in a gVisor sandbox). A crash loses at most that last second.
 */
const BUFFER_BYTES = 4096
const FLUSH_MS = 1000

/**
 * The host's logger: JSON lines on stdout (pino), one per request (request-log.ts),
 * start and stop, and unexpected errors with their stack and request id. Writes are
 * buffered and asynchronous (sonic-boom): `flush` at exit. (No AsyncLocalStorage for request ids: on
 * Node 22 it hooks every promise, which cost the host about a millisecond a request.)
 */
export function createHostLogger(opts: { level?: string; destination?: pino.DestinationStream } = {}): Logger {
  const logger = pino(
    {
      name: 'convene-host',
      level: opts.level ?? process.env.LOG_LEVEL ?? 'info',
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT, censor: '[redacted]' },
    },
    opts.destination ?? pino.destination({ dest: 1, sync: false, minLength: BUFFER_BYTES }),
  )
  if (!opts.destination) setInterval(() => logger.flush(), FLUSH_MS).unref()
  return logger
}
