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
import type { HostConfig, HostOptions } from './config.js'
import type { HostContext } from './context.js'
import { listenOn, closeServer } from '../node/listen.js'
import { holdEarlyRequests } from './early-requests.js'
import { createIdResolver } from '../node/id-resolver.js'
import { HostDidCache } from './identity/did-cache.js'
import { answerOtherErrors, retryAfterOn503 } from './unavailable.js'
import { MemoryCounterStore } from './limits/window-counter.js'
import { DbCounterStore } from './limits/db-counter.js'
import { HostedGroups } from './groups/hosted-groups.js'
import { isPostgres, whileNoOtherStarts } from './db/dialect.js'
import { unauthenticatedLimit } from './limits/ip-limit.js'
import { registerHandleWellKnown } from './api/well-known-did.js'
import { registerOAuth } from './oauth/index.js'
import { createPeerFetch } from '../node/safe-fetch.js'
import { loadHostKey } from './secrets/host-key.js'
import { createHostLogger } from './log/logger.js'
import { requestLog } from './log/request-log.js'
import type { Logger } from 'pino'
import { VerifiedTokenCache } from './auth/verified-tokens.js'
import { speedupOff } from './baseline.js'
import { ChangeStreams } from './stream/service.js'
import { upgradeHandler } from './stream/upgrade.js'
import { DEFAULT_STREAM_LIMITS } from './stream/stream-limits.js'
import { DEFAULT_CHANGE_LOG_DAYS, startChangeLogPruning } from './change-log-retention.js'

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

/**
 * Opens storage, loads or mints the service identity, seeds, and serves. The host key
 * comes from `--key-file` or CONVENE_HOST_KEY unless given (`hostKey`).
 */
export async function startHost(
  options: HostOptions & { hostKey?: Buffer },
  logger: Logger = createHostLogger(),
): Promise<RunningHost> {
  // Before binding: a missing or malformed key is a usage error, not a half-started host.
  const hostKey = options.hostKey ?? loadHostKey({ keyFile: options.keyFile, dataDir: options.dataDir })
  const server = http.createServer()
  // Bind first: with --port 0 the public URL (and so the DID documents) needs the port.
  // What reaches it meanwhile waits for the routes (early-requests.ts).
  const early = holdEarlyRequests(server)
  await listenOn(server, options.port, options.bind)
  const port = (server.address() as AddressInfo).port
  const publicUrl = options.publicUrl || `http://${options.bind}:${port}`
  const cfg: HostConfig = { ...options, port, publicUrl, hostKey }

  const db = await openHostDb(cfg.dataDir, hostKey, { url: cfg.db }).catch(async (err: unknown) => {
    early.refuseHeld()
    await closeServer(server)
    throw err
  })
  // What a first start creates (the service DID, token secrets, seeded groups), made by
  // one process at a time: the others find it (several processes on PostgreSQL).
  const { identity, groupAuth, groups } = await whileNoOtherStarts(db, async () => {
    const identity = await loadServiceIdentity(db, cfg)
    const groupAuth = await loadGroupAuth(db, { publicUrl, serviceDid: identity.did, hostKey })
    const groups = cfg.seedFile ? await applySeed(db, cfg, JSON.parse(fs.readFileSync(cfg.seedFile, 'utf8')) as HostSeed) : []
    return { identity, groupAuth, groups }
  }).catch(async (err: unknown) => {
    await db.destroy()
    early.refuseHeld()
    await closeServer(server)
    throw err
  })
  // DID documents are cached (src/host/identity/did-cache.ts): without it, every
  // authenticated request would wait for the PLC to hand over the caller's key.
  const idResolver = createIdResolver(cfg.plcUrl, { didCache: new HostDidCache() })
  const peerFetch = createPeerFetch({ allowLoopbackPeers: cfg.allowLoopbackPeers })
  const ctx: HostContext = { version: HOST_VERSION, config: cfg, db, identity, idResolver, groupAuth, logger, peerFetch }
  if (!speedupOff('token-cache')) ctx.verifiedTokens = new VerifiedTokenCache()

  // Rate-limit counts: in memory for one SQLite process (src/host/limits/window-counter.ts);
  // in the database on PostgreSQL, shared by every process serving it (db-counter.ts).
  const counters = isPostgres(db) ? new DbCounterStore(db) : new MemoryCounterStore()
  // The change stream reads the log from its end as it is now; streams resume from cursors.
  ctx.changeStreams = await ChangeStreams.start(db, { limits: cfg.streamLimits ?? DEFAULT_STREAM_LIMITS, logger, postgresUrl: cfg.db }).catch(async (err: unknown) => {
    counters.close()
    await db.destroy()
    early.refuseHeld()
    await closeServer(server)
    throw err
  })
  const xrpc = createXrpcServer({ store: counters, rateLimits: cfg.rateLimits, hostedGroups: new HostedGroups(db) })
  registerMethods(xrpc, ctx)
  const app = express()
  app.disable('x-powered-by')
  if (cfg.trustProxy !== undefined) app.set('trust proxy', trustProxyValue(cfg.trustProxy))
  // Every request is logged, those the limits below refuse included.
  app.use(requestLog(logger))
  app.use(retryAfterOn503)
  // Before any route, so a refused address costs nothing further (src/host/limits/ip-limit.ts).
  app.use(unauthenticatedLimit(counters, cfg.rateLimits))
  registerHealth(app, ctx)
  registerHandleWellKnown(app, ctx)
  registerOAuth(app, ctx)
  app.use(xrpc.xrpc.router)
  registerNotFound(app)
  app.use(answerOtherErrors)
  early.serveWith(app)
  server.on('upgrade', upgradeHandler({ ctx, xrpc, app, connections: ctx.changeStreams.connections, counters, rateLimits: cfg.rateLimits }))
  // The change log is kept for --change-log-days; every process prunes it.
  const pruning = startChangeLogPruning(db, { days: cfg.changeLogDays ?? DEFAULT_CHANGE_LOG_DAYS, logger })

  logger.info(
    { serviceDid: identity.did, url: publicUrl, bind: cfg.bind, port, plcUrl: cfg.plcUrl, allowLoopbackPeers: cfg.allowLoopbackPeers, version: HOST_VERSION },
    'host started',
  )
  return {
    ctx,
    url: publicUrl,
    groups,
    async close() {
      logger.info('host stopping')
      // Open streams first: the server's close waits for every connection to end.
      await ctx.changeStreams?.close()
      await closeServer(server)
      await pruning.stop()
      counters.close()
      await db.destroy()
      logger.info('host stopped')
    },
  }
}
