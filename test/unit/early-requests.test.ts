import http from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { holdEarlyRequests } from '../../src/host/early-requests.js'
import { closeServer, listenOn } from '../../src/node/listen.js'

let server: http.Server | undefined
afterEach(() => closeServer(server))

/** A server bound and listening before it has routes, as the host is while it starts. */
async function starting(limits?: { most?: number; waitMs?: number }) {
  server = http.createServer()
  const early = holdEarlyRequests(server, limits)
  await listenOn(server, 0)
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/xrpc/_health`
  return { early, url }
}

describe('requests that reach the host while it starts', () => {
  it('wait for the routes and are answered by them, in order, never left hanging', async () => {
    const { early, url } = await starting()
    const answers = Promise.all([fetch(`${url}?n=1`), fetch(`${url}?n=2`)].map(async (r) => (await r).text()))
    await new Promise((r) => setTimeout(r, 300))
    const seen: string[] = []
    early.serveWith((req, res) => {
      seen.push(req.url!)
      res.end('ready')
    })
    expect(await answers).toEqual(['ready', 'ready'])
    expect(seen).toEqual(['/xrpc/_health?n=1', '/xrpc/_health?n=2'])
    expect(await (await fetch(url)).text()).toBe('ready')
  })

  it('are told to come back (503, Retry-After) past the wait or past the most held, and at once when the host will not start', async () => {
    const { early, url } = await starting({ most: 1, waitMs: 200 })
    const first = fetch(url)
    await new Promise((r) => setTimeout(r, 50))
    const second = await fetch(url)
    expect(second.status).toBe(503)
    expect(second.headers.get('retry-after')).toBe('1')
    expect(await second.json()).toMatchObject({ error: 'ServiceUnavailable' })
    expect((await first).status).toBe(503)
    const third = fetch(url)
    await new Promise((r) => setTimeout(r, 50))
    early.refuseHeld()
    expect((await third).status).toBe(503)
  })
})
