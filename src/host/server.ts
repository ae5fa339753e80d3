import http from 'node:http'
import fs from 'node:fs'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { openHostDb } from './db/index.js'
import { loadServiceIdentity } from './identity/service-identity.js'
import { loadGroupAuth } from './auth/group-auth.js'
import { applySeed, type HostSeed, type SeededGroup } from './seed.js'
import { registerHealth } from './api/health.js'
import { registerMethods } from './api/index.js'
import { registerNotFound } from './api/not-found.js'
import { createXrpcServer } from './xrpc.js'
import type { HostConfig } from './config.js'
import type { HostContext } from './context.js'
import { listenOn, closeServer } from '../node/listen.js'
import { createIdResolver } from '../node/id-resolver.js'
import { HostDidCache } from './identity/did-cache.js'
import { answerOtherErrors, retryAfterOn503 } from './unavailable.js'
import { MemoryCounterStore } from './limits/window-counter.js'
import { unauthenticatedLimit } from './limits/ip-limit.js'
import { registerHandleWellKnown } from './api/well-known-did.js'

export const HOST_VERSION = '0.1.0'

export interface RunningHost {
  ctx: HostContext
  url: string
  groups: SeededGroup[]
  close(): Promise<void>
}

/** `--trust-proxy` as Express takes it: a hop count, true/false, or addresses and names. */
function trustProxyValue(value: string): boolean | number | string {
  if (/^\d+$/.test(value)) return Number(value)
  if (value === 'true' || value === 'false') return value === 'true'
  return value
}

/** Opens storage, loads or mints the service identity, seeds, and serves. */
export async function startHost(config: HostConfig): Promise<RunningHost> {
  const server = http.createServer()
  // Bind first: with --port 0 the public URL (and so the DID documents) needs the port.
  await listenOn(server, config.port, config.bind)
  const port = (server.address() as AddressInfo).port
  const publicUrl = config.publicUrl || `http://${config.bind}:${port}`
  const cfg = { ...config, port, publicUrl }

  const db = await openHostDb(cfg.dataDir)
  const identity = await loadServiceIdentity(db, cfg)
  const groupAuth = await loadGroupAuth(db, { publicUrl, serviceDid: identity.did })
  // DID documents are cached (src/host/identity/did-cache.ts): without it, every
  // authenticated request would wait for the PLC to hand over the caller's key.
  const idResolver = createIdResolver(cfg.plcUrl, { didCache: new HostDidCache() })
  const ctx: HostContext = { version: HOST_VERSION, config: cfg, db, identity, idResolver, groupAuth }

  // Rate-limit counts: in memory, one host process (src/host/limits/window-counter.ts).
  const counters = new MemoryCounterStore()
  const xrpc = createXrpcServer({ store: counters, rateLimits: cfg.rateLimits })
  registerMethods(xrpc, ctx)
  const app = express()
  app.disable('x-powered-by')
  app.use(retryAfterOn503)
  if (cfg.trustProxy !== undefined) app.set('trust proxy', trustProxyValue(cfg.trustProxy))
  // First, so a refused address costs nothing further (src/host/limits/ip-limit.ts).
  app.use(unauthenticatedLimit(counters, cfg.rateLimits))
  registerHealth(app, ctx)
  registerHandleWellKnown(app, ctx)
  app.use(xrpc.xrpc.router)
  registerNotFound(app)
  app.use(answerOtherErrors)
  server.on('request', app)

  let groups: SeededGroup[] = []
  if (cfg.seedFile) {
    const seed = JSON.parse(fs.readFileSync(cfg.seedFile, 'utf8')) as HostSeed
    groups = await applySeed(db, cfg, seed)
  }
  return {
    ctx,
    url: publicUrl,
    groups,
    async close() {
      await closeServer(server)
      counters.close()
      await db.destroy()
    },
  }
}
