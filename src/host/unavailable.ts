import type { ErrorRequestHandler, RequestHandler } from 'express'
import { NotEnoughResourcesError, XRPCError } from '@atproto/xrpc-server'
import { isTransientDbError } from './db/errors.js'

/**
 * How long a client should wait before trying again after a 503, in seconds. A lock on
 * the database is held by a backup or a second process for moments; a PLC outage may
 * last longer, but a client that retries sooner is only refused again.
 */
export const RETRY_AFTER_S = 5

/** 503 `ServiceUnavailable`: the host is sound but cannot answer now; try again later. */
export function serviceUnavailable(message: string): XRPCError {
  return new NotEnoughResourcesError(message, 'ServiceUnavailable')
}

/**
 * Whether an error is SQLite waiting in vain for a lock (past `busy_timeout`): another
 * connection (a backup, a second process, someone's sqlite3 shell) holds the database.
 * Nothing is wrong with the request, so it is a 503, never a 500. On PostgreSQL: a
 * transaction that collided with another's, or a lock not had in time (db/errors.ts).
 */
export const isDatabaseBusy: (err: unknown) => boolean = isTransientDbError

export const DATABASE_BUSY_MESSAGE = 'The host’s database is busy just now; try again in a few seconds'

/**
 * Every 503 the host sends says when to come back (`Retry-After`, RFC 9110 section
 * 10.2.3). Set where the status is written, since XRPC errors are answered by
 * xrpc-server's own error handler, which sets no headers.
 */
export const retryAfterOn503: RequestHandler = (_req, res, next) => {
  const writeHead = res.writeHead
  res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
    if (args[0] === 503 && !this.hasHeader('Retry-After')) this.setHeader('Retry-After', String(RETRY_AFTER_S))
    return writeHead.apply(this, args)
  } as typeof writeHead
  next()
}

/**
 * The last error handler, for paths outside XRPC (e.g. `/.well-known/...`): the same
 * `{error, message}` bodies and statuses as XRPC methods, a busy database a 503, and
 * anything unexpected a 500 without details (Express's default would send HTML with a
 * stack trace outside production).
 */
export const answerOtherErrors: ErrorRequestHandler = (err, _req, res, next) => {
  if (res.headersSent) return next(err)
  const xrpcError = isDatabaseBusy(err) ? serviceUnavailable(DATABASE_BUSY_MESSAGE) : XRPCError.fromError(err)
  res.status(xrpcError.statusCode).json(xrpcError.payload)
}
