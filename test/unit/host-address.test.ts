import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IdResolver } from '@atproto/identity'
import { hostAddress } from '../../src/main/core/groups/resolve-group.js'
import { createPeerFetch } from '../../src/node/safe-fetch.js'

/**
 * The app core finds a group's host from an address in a DID document anyone can write
 * (issue 35): through the guarded fetch, which follows no redirect and, off the local
 * network, reaches no private or loopback address.
 */
const HOST_DID = 'did:plc:hosthosthosthosthosthost'
let elsewhere: http.Server
let redirecting: http.Server
const urlOf = (s: http.Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`
/** A DID document naming `url` as the host's #groups service, whatever is asked. */
const resolverNaming = (url: () => string) => ({ did: { resolve: async () => ({ id: HOST_DID, service: [{ id: '#groups', type: 'GroupHost', serviceEndpoint: url() }] }) } }) as unknown as IdResolver

beforeAll(async () => {
  elsewhere = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ did: HOST_DID })))
  redirecting = http.createServer((req, res) => res.writeHead(302, { location: `${urlOf(elsewhere)}${req.url}` }).end())
  await Promise.all([elsewhere, redirecting].map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))))
})
afterAll(() => {
  elsewhere.close()
  redirecting.close()
})

describe('finding a group host', () => {
  it('follows no redirect from the address the DID document gives', async () => {
    const fetch = createPeerFetch({ allowLoopbackPeers: true })
    await expect(hostAddress(urlOf(redirecting), resolverNaming(() => urlOf(redirecting)), fetch)).rejects.toMatchObject({ code: 'HostUnreachable' })
    // The same host asked directly is found.
    expect(await hostAddress(urlOf(elsewhere), resolverNaming(() => urlOf(elsewhere)), fetch)).toEqual({ url: urlOf(elsewhere), aud: `${HOST_DID}#groups` })
  })

  it('reaches no loopback or private address off the local network', async () => {
    const fetch = createPeerFetch({ allowLoopbackPeers: false })
    await expect(hostAddress(urlOf(elsewhere), resolverNaming(() => urlOf(elsewhere)), fetch)).rejects.toMatchObject({ code: 'HostUnreachable' })
    await expect(hostAddress('http://10.0.0.7', resolverNaming(() => 'http://10.0.0.7'), fetch)).rejects.toMatchObject({ code: 'HostUnreachable' })
  })
})
