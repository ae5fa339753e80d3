import { AsyncLocalStorage } from 'node:async_hooks'
import pino, { type Logger } from 'pino'

/** The request a log line was written for (set by request-log.ts for each request). */
export const requestScope = new AsyncLocalStorage<{ reqId: string }>()

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
 * The host's logger: JSON lines on stdout (pino), one per request (request-log.ts),
 * start and stop, and unexpected errors with their stack. Lines written while a request
 * is handled carry its `reqId`. Writes are asynchronous (sonic-boom): `flush` at exit.
 */
export function createHostLogger(opts: { level?: string; destination?: pino.DestinationStream } = {}): Logger {
  return pino(
    {
      name: 'convene-host',
      level: opts.level ?? process.env.LOG_LEVEL ?? 'info',
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT, censor: '[redacted]' },
      mixin: () => {
        const scope = requestScope.getStore()
        return scope ? { reqId: scope.reqId } : {}
      },
    },
    opts.destination ?? pino.destination({ dest: 1, sync: false }),
  )
}
