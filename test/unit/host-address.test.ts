import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IdResolver } from '@atproto/identity'
import { hostAddress } from '../../src/main/core/groups/resolve-group.js'
import { GroupCredentials } from '../../src/main/core/credentials/group-credentials.js'
import { HostClient } from '../../src/main/core/xrpc/host-client.js'
import { ServiceAuthCache } from '../../src/main/core/xrpc/service-auth-cache.js'
import { createHostCallFetch, createPeerFetch } from '../../src/node/safe-fetch.js'

/**
 * The app core finds a group's host from an address in a DID document anyone can write
 * (issue 35): through the guarded fetch, which follows no redirect and, off the local
 * network, reaches no private or loopback address.
 */
const HOST_DID = 'did:plc:hosthosthosthosthosthost'
let elsewhere: http.Server
let redirecting: http.Server
/** A host whose grant names `redirecting` as where the group's writes go. */
let granting: http.Server
/** Requests `elsewhere` got: a redirect followed lands there. */
let reachedElsewhere = 0
const urlOf = (s: http.Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`
/** A DID document naming `url` as the host's #groups service, whatever is asked. */
const resolverNaming = (url: () => string) => ({ did: { resolve: async () => ({ id: HOST_DID, service: [{ id: '#groups', type: 'GroupHost', serviceEndpoint: url() }] }) } }) as unknown as IdResolver

beforeAll(async () => {
  elsewhere = http.createServer((_req, res) => {
    reachedElsewhere++
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ did: HOST_DID }))
  })
  // 303: fetch follows it for any method (as a GET), so a followed write would show at `elsewhere`.
  redirecting = http.createServer((req, res) => res.writeHead(303, { location: `${urlOf(elsewhere)}${req.url}` }).end())
  granting = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        did: GROUP_DID,
        accessJwt: 'a.b.c',
        pds: urlOf(redirecting),
        collections: [EVENT],
        repoCollections: [],
        scope: 'atproto',
        expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
      }),
    ),
  )
  await Promise.all([elsewhere, redirecting, granting].map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))))
})
afterAll(() => {
  elsewhere.close()
  redirecting.close()
  granting.close()
})

const GROUP_DID = 'did:plc:groupgroupgroupgroupgrou'
const EVENT = 'community.lexicon.calendar.event'
const SPACE = `at://${GROUP_DID}/space/community.lexicon.calendar/self`
const anyToken = () => new ServiceAuthCache(async () => 'token')

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

describe('calling a group host and writing as the group', () => {
  it('follows no redirect from a host’s method, and sends nothing on', async () => {
    const client = new HostClient({ url: urlOf(redirecting), aud: `${HOST_DID}#groups` }, anyToken(), createHostCallFetch({ allowLoopbackPeers: true }))
    const before = reachedElsewhere
    await expect(client.query('example.groups.getGroup', { group: GROUP_DID })).rejects.toMatchObject({ status: 0, error: 'HostUnreachable' })
    expect(reachedElsewhere).toBe(before)
  })

  it('sends no signed write on from the address a grant names', async () => {
    const credentials = new GroupCredentials(anyToken(), createHostCallFetch({ allowLoopbackPeers: true }))
    const before = reachedElsewhere
    const write = credentials.write({ url: urlOf(granting), aud: `${HOST_DID}#groups` }, GROUP_DID, SPACE, 'com.atproto.space.createRecord', {
      space: SPACE,
      repo: GROUP_DID,
      collection: EVENT,
      record: { $type: EVENT, name: 'Picnic', createdAt: new Date().toISOString() },
    })
    await expect(write).rejects.toMatchObject({ status: 0, error: 'HostUnreachable' })
    expect(reachedElsewhere).toBe(before)
  })

  it('reaches no loopback or private host off the local network', async () => {
    const before = reachedElsewhere
    for (const url of [urlOf(elsewhere), 'http://10.0.0.7', 'http://169.254.169.254']) {
      const client = new HostClient({ url, aud: `${HOST_DID}#groups` }, anyToken(), createHostCallFetch({ allowLoopbackPeers: false }))
      await expect(client.query('example.groups.getGroup', { group: GROUP_DID }), url).rejects.toMatchObject({ status: 0, error: 'HostUnreachable' })
    }
    expect(reachedElsewhere).toBe(before)
  })
})
