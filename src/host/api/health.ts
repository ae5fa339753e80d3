import type express from 'express'
import type { HostContext } from '../context.js'

/** `GET /xrpc/_health`: liveness, version, and the service DID peers address tokens to. */
export function registerHealth(app: express.Application, ctx: HostContext) {
  app.get('/xrpc/_health', (_req, res) => {
    res.json({ version: ctx.version, did: ctx.identity.did, aud: ctx.identity.aud })
  })
}
