import type express from 'express'

/**
 * The error names the OAuth endpoints answer with: RFC 6749 section 5.2, RFC 7009,
 * RFC 9126 and RFC 9449. Never an XRPC name here: OAuth clients read `error`.
 */
export type OAuthErrorName =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'invalid_request_uri'
  | 'request_not_supported'
  | 'invalid_dpop_proof'
  | 'use_dpop_nonce'
  | 'server_error'

/** A refusal of an OAuth endpoint: `{error, error_description}` with its status. */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorName,
    message: string,
    readonly status = error === 'invalid_client' ? 401 : 400,
  ) {
    super(message)
  }
}

export const oauthError = (error: OAuthErrorName, message: string, status?: number) => new OAuthError(error, message, status)

/**
 * Wraps an endpoint so that every refusal is an OAuth JSON answer (never an HTML 500):
 * `OAuthError`s as they are, a body Express would not read (too large, not parseable)
 * as `invalid_request`, anything else as `server_error` after logging it.
 */
export function oauthEndpoint(handler: (req: express.Request, res: express.Response) => Promise<void>): express.RequestHandler {
  return (req, res) => {
    handler(req, res).catch((err: unknown) => sendOAuthError(req, res, err))
  }
}

function sendOAuthError(req: express.Request, res: express.Response, err: unknown): void {
  const known = toOAuthError(err)
  // The request log's hook (src/host/log/request-log.ts) keeps the stack of what was not foreseen.
  if (!known) (req as { log?: { error(entry: { err: unknown; status: number }): void } }).log?.error({ err, status: 500 })
  const { error, message, status } = known ?? new OAuthError('server_error', 'The server could not complete the request', 500)
  res.status(status).set('Cache-Control', 'no-store').json({ error, error_description: message })
}

function toOAuthError(err: unknown): OAuthError | undefined {
  if (err instanceof OAuthError) return err
  // body-parser's errors carry an HTTP status and an `expose` flag.
  const e = err as { status?: number; type?: string; expose?: boolean } | undefined
  if (e?.expose && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    const message = e.type === 'entity.too.large' ? 'The request body is too large' : 'The request body could not be read'
    return new OAuthError('invalid_request', message, e.status)
  }
  return undefined
}

/** Body-parser failures on the OAuth routes, answered the OAuth way (Express error middleware). */
export const oauthBodyErrors: express.ErrorRequestHandler = (err, req, res, next) => {
  if (!toOAuthError(err)) return next(err)
  sendOAuthError(req, res, err)
}
