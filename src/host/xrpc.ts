import { XRPCError, InvalidRequestError } from '@atproto/xrpc-server'
import { isConstraintViolation } from './db/errors.js'
import { createServer, type Server } from '../node/lexicon/index.js'
import { DATABASE_BUSY_MESSAGE, isDatabaseBusy, serviceUnavailable } from './unavailable.js'
import type { CounterStore } from './limits/window-counter.js'
import type { RateLimits } from './limits/rate-limits.js'
import { xrpcRateLimits } from './limits/xrpc-limits.js'
import type { HostedGroups } from './groups/hosted-groups.js'
import { requestReadingError } from './request-errors.js'

/**
 * The XRPC server, typed from our lexicons by lex-cli's `gen-server` (src/node/lexicon,
 * which setup regenerates when a lexicon changes: scripts/lexicon-code.mjs): routes,
 * parameter and body validation (bad input is a 400 `InvalidRequest`), and responses
 * checked too, so the host cannot drift from its own published interface. With
 * `limits`, xrpc-server's rate limiting counts each authenticated call
 * (src/host/limits/xrpc-limits.ts).
 */
export function createXrpcServer(limits?: { store: CounterStore; rateLimits: RateLimits; hostedGroups: HostedGroups }): Server {
  return createServer({
    validateResponse: true,
    ...(limits ? { rateLimits: xrpcRateLimits(limits.store, limits.rateLimits, limits.hostedGroups) } : {}),
    payload: { jsonLimit: 256 * 1024, textLimit: 256 * 1024, blobLimit: 5 * 1024 * 1024 },
    errorParser: (err) => {
      const reading = requestReadingError(err)
      if (reading) return reading
      if (err instanceof XRPCError) return err
      // A database locked by another connection past the busy timeout: 503, and
      // `Retry-After` (server.ts) says when to come back.
      if (isDatabaseBusy(err)) return serviceUnavailable(DATABASE_BUSY_MESSAGE)
      // Constraint failures (SQLite or PostgreSQL) are the only other expected non-XRPC errors;
      // any other is a bug, and xrpc-server logs it and answers 500 with no detail.
      if (err instanceof Error && isConstraintViolation(err)) {
        return new InvalidRequestError('That conflicts with the group’s current state; reload and try again')
      }
      return XRPCError.fromError(err)
    },
  })
}
