import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useLocalNetwork, xrpc } from '../../support/local-network.js'
import { startTripwire } from '../../support/tripwire-server.js'
import { startHost, type RunningHost } from '../../../src/host/server.js'
import { createHostLogger } from '../../../src/host/log/logger.js'
import { parseRateLimits } from '../../../src/host/limits/rate-limits.js'

/**
 * The host's operations at the PLC directory (minting a group's DID) go through the
 * host's fetch for the operator's PLC (issue 22, closing the class of finding 1): the
 * directory is trusted, so it may be on loopback, but an answer is waited for only so
 * long, and a redirect is not followed (it would hand the signed operation, and the
 * host's request, to whatever address the redirect names). Before, the PLC library's
 * own client followed redirects and waited for ever.
 */
const net = useLocalNetwork()
let trip: Awaited<ReturnType<typeof startTripwire>>
let host: RunningHost
let proxy: http.Server
/** What the PLC in front of the real one does with operations (POSTs); lookups always pass. */
let operations: 'pass' | 'redirect' | 'stall' = 'pass'
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-plc-operations-'))

/** The network's PLC, behind a proxy that can redirect or hold operations. */
async function startPlcProxy(target: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method === 'POST' && operations === 'redirect') return void res.writeHead(307, { location: `${trip.url}/followed` }).end()
    if (req.method === 'POST' && operations === 'stall') return
    const to = new URL(req.url ?? '/', target)
    const upstream = http.request(to, { method: req.method, headers: { ...req.headers, host: to.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    upstream.on('error', () => res.writeHead(502).end())
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return server
}

beforeAll(async () => {
  trip = await startTripwire()
  proxy = await startPlcProxy(net.stack.plc)
  host = await startHost(
    {
      port: 0, bind: '127.0.0.1', publicUrl: '', dataDir: path.join(work, 'host'),
      plcUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      handleDomains: ['.groups.test'], rateLimits: parseRateLimits(undefined), maxGroupsPerAccount: 100, allowLoopbackPeers: true, hostKey: crypto.randomBytes(32),
    },
    createHostLogger({ level: 'silent' }),
  )
})
afterAll(async () => {
  await host?.close()
  proxy?.closeAllConnections()
  await new Promise((resolve) => proxy?.close(resolve))
  await trip?.close()
  fs.rmSync(work, { recursive: true, force: true })
})

/** createGroup at our host, by the network's owner with real service auth from their PDS. */
async function createGroup() {
  const token = await net.as('owner').serviceAuth('example.groups.createGroup', host.ctx.identity.aud)
  const started = Date.now()
  const res = await xrpc(host.url, 'example.groups.createGroup', {
    body: { handle: `plc-${crypto.randomBytes(3).toString('hex')}.groups.test`, joinPolicy: 'open' },
    headers: { authorization: `Bearer ${token}` },
  })
  return { ...res, ms: Date.now() - started }
}

describe('operations at the PLC directory', () => {
  it('mint a group’s DID at the operator’s PLC, on loopback (the control)', async () => {
    operations = 'pass'
    const res = await createGroup()
    expect(res.status, JSON.stringify(res.body)).toBe(200)
  })

  it('follow no redirect: the group is not created, and the address redirected to gets nothing', async () => {
    operations = 'redirect'
    const before = trip.connections
    const res = await createGroup()
    expect(res.status, JSON.stringify(res.body)).toBe(502)
    expect(res.body.error).toBe('UpstreamFailure')
    expect(trip.connections).toBe(before)
    expect(trip.paths).not.toContain('/followed')
  })

  it('wait for an answer only so long: a directory that never answers is an error, not a hang', async () => {
    operations = 'stall'
    const res = await createGroup()
    expect(res.status, JSON.stringify(res.body)).toBe(502)
    expect(res.body.error).toBe('UpstreamFailure')
    expect(res.ms).toBeLessThan(10_000)
  }, 30_000)
})
