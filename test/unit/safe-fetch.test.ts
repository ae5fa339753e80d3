import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
