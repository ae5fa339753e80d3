import type http from 'node:http'
import type express from 'express'
import type { PDS } from '@atproto/pds'
import { XRPCError } from '@atproto/xrpc-server'
import { createServer } from '../../node/lexicon/index.js'
import { createIdResolver } from '../../node/id-resolver.js'
import { SpaceStore } from './store.js'
import type { RegisterSpaceRoute, SpacesContext } from './context.js'
import putRecord from './putRecord.js'
import deleteRecord from './deleteRecord.js'
import getRecord from './getRecord.js'
import listRecords from './listRecords.js'

const ROUTES: RegisterSpaceRoute[] = [putRecord, deleteRecord, getRecord, listRecords]

export interface PdsSpaces {
  /** Serves the space routes and hands every other request to the PDS's own app. */
  listener(pdsApp: http.RequestListener): http.RequestListener
  close(): Promise<void>
}

/**
 * `com.atproto.space.{putRecord,deleteRecord,getRecord,listRecords}` for the local
 * network's PDS (decisions section 4, "Member writes"): the released @atproto/pds has
 * no spaces yet. The routes run on an XRPC server of their own, typed and validated
 * from our lexicons, in front of the PDS's app; they authorize with the PDS's own
 * `authVerifier`, so password and OAuth (DPoP) sessions both work and OAuth scopes
 * are enforced, and they store in `spaces.sqlite` in the PDS's data directory.
 */
export async function startPdsSpaces(
  pds: PDS,
  opts: { dataDirectory: string; log?: (line: string) => void },
): Promise<PdsSpaces> {
  const store = await SpaceStore.open(opts.dataDirectory)
  const ctx: SpacesContext = {
    pds: pds.ctx,
    idResolver: createIdResolver(pds.ctx.cfg.identity.plcUrl),
    store,
    log: opts.log ?? ((line) => process.stderr.write(`[pds spaces] ${line}\n`)),
  }
  const server = createServer({
    validateResponse: true,
    payload: { jsonLimit: 150 * 1024, textLimit: 100 * 1024, blobLimit: 0 },
    // Every XRPC call that is not a space route belongs to the PDS.
    catchall: (_req, _res, next) => next(),
    errorParser: (err) => XRPCError.fromError(err),
  })
  for (const register of ROUTES) register(server, ctx)
  const router = server.xrpc.router
  return {
    // Each app treats the request as its own; the PDS's app sees it untouched.
    listener: (pdsApp) => (req, res) => router(req as express.Request, res as express.Response, () => pdsApp(req, res)),
    close: () => store.close(),
  }
}
