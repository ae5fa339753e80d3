import { XRPCError, InvalidRequestError } from '@atproto/xrpc-server'
import { createServer, type Server } from './lexicon/index.js'

/**
 * The XRPC server, typed from our lexicons by `lex gen-server` (src/host/lexicon, made
 * by `npm run codegen`): routes, parameter and body validation (bad input is a 400
 * `InvalidRequest`), and responses checked too, so the host cannot drift from its own
 * published interface.
 */
export function createXrpcServer(): Server {
  return createServer({
    validateResponse: true,
    payload: { jsonLimit: 256 * 1024, textLimit: 256 * 1024, blobLimit: 5 * 1024 * 1024 },
    errorParser: (err) => {
      if (err instanceof XRPCError) return err
      // Kysely/SQLite constraint failures are the only expected non-XRPC errors; any
      // other is a bug, and xrpc-server logs it and answers 500 with no detail.
      if (err instanceof Error && /SQLITE_CONSTRAINT/.test((err as { code?: string }).code ?? '')) {
        return new InvalidRequestError('That conflicts with the group’s current state; reload and try again')
      }
      return XRPCError.fromError(err)
    },
  })
}
