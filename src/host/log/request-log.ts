import { randomUUID } from 'node:crypto'
import type express from 'express'
import type { Logger } from 'pino'
import { methodOf } from '../xrpc-method.js'

export const REQUEST_ID_HEADER = 'X-Request-Id'

/** What xrpc-server's error middleware passes to `req.log.error`. */
interface XrpcErrorLog {
  error(entry: { err: unknown; nsid?: string; status: number }, msg?: string): void
}

/** A caller's request id is kept only if it is a short plain token: it is written into our log. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/

export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : randomUUID()
}

/** Who made an authenticated call, for the request's log line (set by the auth verifiers). */
export function noteCaller(res: express.Response, did: string): void {
  res.locals.callerDid = did
}

/**
 * One JSON line per request when its response is finished: request id (echoed in
 * `X-Request-Id`), HTTP method, the XRPC method's NSID (or the path, never the query
 * string: it may hold what the caller typed), status, duration, the caller's DID when
 * authenticated, and the error name of a refusal. Nothing from headers or bodies.
 */
export function requestLog(logger: Logger): express.RequestHandler {
  return (req, res, next) => {
    const reqId = requestIdOf(req.headers['x-request-id'])
    res.setHeader(REQUEST_ID_HEADER, reqId)
    const started = process.hrtime.bigint()
    let errorName: string | undefined
    const json = res.json.bind(res)
    res.json = (body: unknown) => {
      if (res.statusCode >= 400 && body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string') {
        errorName = (body as { error: string }).error
      }
      return json(body)
    }
    const done = () => {
      res.off('finish', done)
      res.off('close', done)
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      const path = req.path.startsWith('/xrpc/') ? undefined : req.path.slice(0, 200)
      const status = res.headersSent ? res.statusCode : 0 // 0: the client went away first
      const line = {
        reqId,
        method: req.method,
        ...(path === undefined ? { nsid: methodOf(req.path).slice(0, 200) } : { path }),
        status,
        ms: Math.round(ms * 10) / 10,
        ...(res.locals.callerDid ? { caller: res.locals.callerDid as string } : {}),
        ...(errorName ? { error: errorName } : {}),
      }
      // 501 (no such method) is the caller's doing; other 5xx are the host's.
      if (status >= 500 && status !== 501) logger.error(line, 'request')
      else logger.info(line, 'request')
    }
    res.on('finish', done)
    res.on('close', done)
    // xrpc-server reports every error it answers to `req.log.error` when there is one
    // (its hook for pino-http): the unexpected ones (5xx but 501) are logged here with
    // their stack and this request's id; refusals are on the request line already.
    ;(req as { log?: XrpcErrorLog }).log = {
      error: (entry) => {
        if (entry.status >= 500 && entry.status !== 501) logger.error({ reqId, nsid: entry.nsid, err: entry.err }, 'unexpected error')
      },
    }
    next()
  }
}
