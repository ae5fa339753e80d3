import type express from 'express'

/**
 * Paths the host does not serve (anything outside `/xrpc/` and the routes registered
 * before this): 404 with the `{error, message}` body of every other refusal, instead of
 * Express's HTML page, which also told every caller what the host is built on.
 * Register last.
 */
export function registerNotFound(app: express.Application) {
  app.use((req, res) => {
    res.status(404).json({ error: 'NotFound', message: `This host serves XRPC under /xrpc/; there is nothing at ${req.method} ${req.path.slice(0, 200)}` })
  })
}
