import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchFailure } from '../../src/node/fetch-failure.js'
import { freePort } from '../../src/node/free-port.js'
import { createIdResolver } from '../../src/node/id-resolver.js'
import { createPeerFetch } from '../../src/node/safe-fetch.js'
import { startTripwire } from '../support/tripwire-server.js'

let trip: Awaited<ReturnType<typeof startTripwire>>
beforeAll(async () => {
  trip = await startTripwire()
})
afterAll(async () => {
  await trip.close()
})

/** Runs `fn` and says how many connections the tripwire got meanwhile. */
async function hitsDuring(fn: () => Promise<unknown>): Promise<number> {
  const before = trip.connections
  await fn().catch(() => undefined)
  return trip.connections - before
}

describe('DID resolution: only the configured PLC may be on loopback', () => {
  it('resolves did:plc at a loopback PLC (the local network works)', async () => {
    const resolver = createIdResolver(trip.url)
    expect(await hitsDuring(() => resolver.did.resolveNoCache('did:plc:abcdefghijklmnopqrstuvwx'))).toBe(1)
    expect(trip.paths.at(-1)).toBe('/did%3Aplc%3Aabcdefghijklmnopqrstuvwx')
  })

  it('never fetches a did:web on loopback, private or link-local addresses, though the PLC is on loopback', async () => {
    const resolver = createIdResolver(trip.url)
    const dids = [
      `did:web:localhost%3A${trip.port}`,
      `did:web:127.0.0.1%3A${trip.port}`,
      'did:web:127.0.0.1',
      'did:web:localhost',
      'did:web:10.0.0.1',
      'did:web:192.168.1.1',
      'did:web:169.254.169.254',
      'did:web:224.0.0.1',
      'did:web:0.0.0.0',
    ]
    for (const did of dids) {
      const started = Date.now()
      expect(await hitsDuring(() => resolver.did.resolveNoCache(did)), did).toBe(0)
      await expect(resolver.did.resolveNoCache(did), did).rejects.toThrow()
      // Refused by policy, not after a connection attempt timed out.
      expect(Date.now() - started, did).toBeLessThan(1000)
    }
  })

  it('never fetches a handle’s /.well-known/atproto-did from loopback', async () => {
    const resolver = createIdResolver(trip.url)
    expect(await hitsDuring(() => resolver.handle.resolve('localhost'))).toBe(0)
  })
})

describe('peer fetch (members’ PDSes)', () => {
  it('refuses loopback, private and link-local addresses by default, before connecting', async () => {
    const fetch = createPeerFetch({ allowLoopbackPeers: false })
    for (const url of [`${trip.url}/`, `https://127.0.0.1:${trip.port}/`, `https://localhost:${trip.port}/`, `https://[::ffff:127.0.0.1]:${trip.port}/`, 'https://10.0.0.1/', 'https://169.254.169.254/latest/meta-data']) {
      expect(await hitsDuring(() => fetch(url, { redirect: 'error' })), url).toBe(0)
      await expect(fetch(url, { redirect: 'error' }), url).rejects.toThrow()
    }
  })

  it('with --allow-loopback-peers reaches loopback, still never private or link-local addresses', async () => {
    const fetch = createPeerFetch({ allowLoopbackPeers: true })
    const ok = await fetch(`${trip.url}/ok`, { redirect: 'error' })
    expect(await ok.text()).toBe('ok')
    for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data', 'http://192.168.0.1/']) {
      const started = Date.now()
      await expect(fetch(url, { redirect: 'error' }), url).rejects.toThrow()
      expect(Date.now() - started, url).toBeLessThan(1000)
    }
  })

  it('does not follow a redirect, not even from a loopback peer to the cloud metadata address', async () => {
    const fetch = createPeerFetch({ allowLoopbackPeers: true })
    const to = encodeURIComponent('http://169.254.169.254/latest/meta-data')
    await expect(fetch(`${trip.url}/redirect?to=${to}`, { redirect: 'follow' })).rejects.toThrow()
    const back = encodeURIComponent(`${trip.url}/followed`)
    await expect(fetch(`${trip.url}/redirect?to=${back}`, { redirect: 'follow' })).rejects.toThrow()
    expect(trip.paths).not.toContain('/followed')
  })

  it('stops reading a response past 512 kB', async () => {
    const fetch = createPeerFetch({ allowLoopbackPeers: true })
    await expect(fetch(`${trip.url}/big`, { redirect: 'error' }).then((r) => r.arrayBuffer())).rejects.toThrow()
  })
})

// The group sign-in tells people which step failed (src/host/oauth/sign-in-failure.ts)
// from these; a library update that changes how the guard fails shows here first.
describe('why a guarded fetch failed', () => {
  const failureOf = async (request: () => Promise<unknown>) => {
    try {
      await request()
    } catch (err) {
      return fetchFailure(err)
    }
    throw new Error('it did not fail')
  }

  it('names the guard’s refusals of an address, before anything is sent', async () => {
    const fetch = createPeerFetch({ allowLoopbackPeers: false })
    for (const url of [`https://127.0.0.1:${trip.port}/`, `https://localhost:${trip.port}/`, `http://example.test.invalid/`, 'https://10.0.0.1/', 'https://[::1]/']) {
      expect(await failureOf(() => fetch(url, { redirect: 'error' })), url).toBe('refused')
    }
    const resolver = createIdResolver(trip.url)
    expect(await failureOf(() => resolver.did.resolveNoCache(`did:web:localhost%3A${trip.port}`))).toBe('refused')
  })

  it('names a server that cannot be reached, or not in time', async () => {
    const fetch = createPeerFetch({ allowLoopbackPeers: true })
    const closed = await freePort()
    expect(await failureOf(() => fetch(`http://127.0.0.1:${closed}/`, { redirect: 'error' }))).toBe('unreachable')
    const silent = http.createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`
      expect(await failureOf(() => fetch(url, { redirect: 'error', signal: AbortSignal.timeout(200) }))).toBe('timeout')
    } finally {
      silent.closeAllConnections()
      silent.close()
    }
  })

  it('names a redirect it did not follow and an answer past the size cap; other errors are not its', async () => {
    const fetch = createPeerFetch({ allowLoopbackPeers: true })
    expect(await failureOf(() => fetch(`${trip.url}/redirect?to=%2Fok`, { redirect: 'error' }))).toBe('refused-redirect')
    expect(await failureOf(() => fetch(`${trip.url}/big`, { redirect: 'error' }).then((r) => r.arrayBuffer()))).toBe('too-large')
    expect(fetchFailure(new SyntaxError('Unexpected token'))).toBeUndefined()
    expect(fetchFailure('nope')).toBeUndefined()
  })
})
