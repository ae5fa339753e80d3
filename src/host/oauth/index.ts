import express from 'express'
import type { HostContext } from '../context.js'
import { oauthBodyErrors } from './errors.js'
import { registerOAuthMetadata } from './metadata.js'
import { registerPar, PAR_PATH } from './par.js'
import { registerAuthorize } from './authorize.js'
import { registerToken, REVOKE_PATH, TOKEN_PATH } from './token.js'
import { createUpstreamClient } from './upstream.js'
import { STYLE_PATH, STYLESHEET } from './pages.js'

/** Form bodies of the OAuth endpoints: small (RFC 9126 requests are a few kB at most). */
const OAUTH_BODY_LIMIT = '16kb'

/**
 * Browser apps (atproto's browser OAuth client) call PAR, token and revocation from
 * their own origin: these endpoints take no cookies and authenticate nothing ambient,
 * so any origin may, and must be able to read the nonce the host hands out.
 */
const allowBrowserClients: express.RequestHandler = (req, res, next) => {
  res.set({
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Headers': 'Content-Type, DPoP',
    'Access-Control-Allow-Methods': 'POST',
    'Access-Control-Expose-Headers': 'DPoP-Nonce, WWW-Authenticate',
  })
  if (req.method === 'OPTIONS') return void res.status(204).end()
  next()
}

/**
 * The host as the authorization server of the groups it hosts (issue 14, decisions
 * 6.6): metadata, PAR, the authorization pages, token and revocation. See docs/host.md
 * ("Group sign-in") for the flow and why this is not `@atproto/oauth-provider`.
 */
export function registerOAuth(app: express.Application, ctx: HostContext): void {
  const body = [
    express.urlencoded({ extended: false, limit: OAUTH_BODY_LIMIT, parameterLimit: 50 }),
    express.json({ limit: OAUTH_BODY_LIMIT }),
    oauthBodyErrors,
  ]
  app.use([PAR_PATH, TOKEN_PATH, REVOKE_PATH], allowBrowserClients, ...body)
  registerOAuthMetadata(app, ctx)
  registerPar(app, ctx)
  registerToken(app, ctx)
  registerAuthorize(app, ctx, createUpstreamClient(ctx))
  app.get(STYLE_PATH, (_req, res) => {
    res.set({ 'Cache-Control': 'max-age=3600', 'X-Content-Type-Options': 'nosniff' }).type('css').send(STYLESHEET)
  })
}
