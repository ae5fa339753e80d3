import http from 'node:http'
import * as plc from '@did-plc/server'
import { listenOn, closeServer } from '../node/listen.js'

export interface RunningPlc {
  url: string
  /**
   * Stops answering (connections refused) while `fn` runs, then listens again on the same
   * port with the same directory: a PLC outage, for tests of what its clients do.
   */
  whileDown<T>(fn: () => Promise<T>): Promise<T>
  /** How many times the directory has been asked for `did`'s document (tests of what its clients cache). */
  lookups(did: string): number
  close(): Promise<void>
}

/**
 * A PLC directory with in-memory storage: every stack start is a fresh network, so
 * nothing needs to outlive the process (docs/decisions section 5).
 */
export async function startPlc(port: number): Promise<RunningPlc> {
  const server = plc.PlcServer.create({ db: plc.Database.mock(), port })
  const asked = new Map<string, number>()
  const app: http.RequestListener = (req, res) => {
    const did = safeDecode((req.url ?? '/').split('?')[0]!.slice(1))
    if (req.method === 'GET' && did.startsWith('did:')) asked.set(did, (asked.get(did) ?? 0) + 1)
    server.app(req, res)
  }
  let listener = await listenOn(http.createServer(app), port)
  return {
    url: `http://127.0.0.1:${port}`,
    async whileDown(fn) {
      await closeServer(listener)
      try {
        return await fn()
      } finally {
        listener = await listenOn(http.createServer(app), port)
      }
    },
    lookups: (did) => asked.get(did) ?? 0,
    async close() {
      await closeServer(listener)
      await server.ctx.db.close()
    },
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
