import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useLocalNetwork, xrpc } from '../../support/local-network.js'
import { startTripwire } from '../../support/tripwire-server.js'

const net = useLocalNetwork()
let trip: Awaited<ReturnType<typeof startTripwire>>
beforeAll(async () => {
  trip = await startTripwire()
})
afterAll(async () => {
  await trip.close()
})

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
/** A token that passes every check needing no key, issued by `iss`: the host must look the key up. */
function tokenFrom(iss: string, lxm: string): string {
  const now = Math.floor(Date.now() / 1000)
  return `${b64({ alg: 'ES256K', typ: 'JWT' })}.${b64({ iss, aud: net.stack.host.aud, lxm, iat: now, exp: now + 60 })}.${'A'.repeat(86)}`
}

/**
 * did:web addresses an attacker would use to reach the host's own machine or network:
 * loopback (where the tripwire listens), private and link-local (cloud metadata)
 * addresses. The PLC is on loopback too: its exemption must not extend to them.
 */
const hostileDids = () => [
  `did:web:localhost%3A${trip.port}`,
  `did:web:127.0.0.1%3A${trip.port}`,
  'did:web:localhost',
  'did:web:10.0.0.1',
  'did:web:169.254.169.254',
]

describe('SSRF: the host fetches no DID document from its own machine or network', () => {
  it('the tripwire does count requests that reach it', async () => {
    const before = trip.connections
    await fetch(`${trip.url}/.well-known/did.json`)
    expect(trip.connections).toBe(before + 1)
  })

  it('refuses service auth from a did:web on loopback, private or link-local addresses without fetching it', async () => {
    for (const did of hostileDids()) {
      const started = Date.now()
      const res = await xrpc(net.stack.host.url, 'example.groups.getGroup', {
        params: { group: net.group('open').did },
        headers: { authorization: `Bearer ${tokenFrom(did, 'example.groups.getGroup')}` },
      })
      expect(res.status, did).toBe(401)
      expect(res.body.error, did).toBe('BadJwt')
      expect(Date.now() - started, `${did}: refused, not timed out`).toBeLessThan(2000)
    }
    expect(trip.connections).toBe(1)
  })

  it('looks up no did:web group on loopback for a group parameter either', async () => {
    for (const did of hostileDids()) {
      const res = await net.as('member').call('example.groups.getGroup', { params: { group: did } })
      expect(res.status, did).toBe(400)
      expect(res.body.error, did).toBe('InvalidRequest')
    }
    expect(trip.connections).toBe(1)
  })

  it('still resolves did:plc callers at the loopback PLC (the exemption that remains)', async () => {
    const res = await net.as('member').call('example.groups.getGroup', { params: { group: net.group('open').did } })
    expect(res.status).toBe(200)
  })
})
