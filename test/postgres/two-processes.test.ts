import { beforeAll, describe, expect, it } from 'vitest'
import { useLocalNetwork, xrpc } from '../support/local-network.js'
import { createDpopKey, dpopProof } from '../support/dpop.js'

/**
 * Two host processes on one PostgreSQL database behind one address (issue 18): what one
 * process has seen, the other knows. Each request here goes to a chosen process by its
 * own address, as the round-robin in front would send a client's next connection.
 * Runs in the PostgreSQL run of `npm test` (vitest.postgres.config.ts).
 */
const QUERY_LIMIT = 6
const net = useLocalNetwork({ hostProcesses: 2, hostRateLimits: `createGroup=100000,procedures=10000000,queries=${QUERY_LIMIT},unauthenticated=10000000` })

const group = () => net.group('open').did
const calendar = () => `at://${group()}/space/community.lexicon.calendar/self`
const GRANT = 'example.groups.getGroupAuth'
let a: string
let b: string

beforeAll(async () => {
  ;[a, b] = net.running.hostProcessUrls() as [string, string]
  expect(a).not.toBe(b)
  const created = await net.as('owner').call('example.groups.createSpace', {
    body: {
      group: group(), type: 'community.lexicon.calendar', skey: 'self', name: 'Calendar',
      readableBy: ['owner', 'admin', 'member'], credentialScopes: [{ role: 'admin', scopes: ['community.lexicon.calendar.event'] }],
    },
  })
  expect(created.status, JSON.stringify(created.body)).toBe(200)
})

/** getGroupAuth at one process, with the public address in the proof (as a client writes it). */
async function grantAt(processUrl: string, token: string, proof: string) {
  const res = await fetch(`${processUrl}/xrpc/${GRANT}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', dpop: proof },
    body: JSON.stringify({ group: group(), space: calendar() }),
  })
  return { status: res.status, body: (await res.json()) as { error?: string; accessJwt?: string }, nonce: res.headers.get('dpop-nonce') }
}

const publicGrantUrl = () => `${net.stack.host.url}/xrpc/${GRANT}`

/** A nonce both processes accept: the secret it is made with is in the database. */
async function nonceFrom(processUrl: string): Promise<string> {
  const token = await net.as('admin').serviceAuth(GRANT)
  const challenge = await grantAt(processUrl, token, await dpopProof(await createDpopKey(), { htm: 'POST', htu: publicGrantUrl() }))
  expect(challenge.status).toBe(401)
  return challenge.nonce!
}

describe('several host processes on one PostgreSQL database', () => {
  it('both serve the same groups under the one public address', async () => {
    for (const url of [a, b, net.stack.host.url]) {
      const res = await xrpc(url, 'example.groups.getGroup', {
        params: { group: group() },
        headers: { authorization: `Bearer ${await net.as('member').serviceAuth('example.groups.getGroup')}` },
      })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ did: group(), viewer: { roles: ['member'] } })
    }
  })

  it('a getGroupAuth token taken by one process is refused by the other', async () => {
    const token = await net.as('admin').serviceAuth(GRANT)
    const nonce = await nonceFrom(b)
    const first = await grantAt(a, token, await dpopProof(await createDpopKey(), { htm: 'POST', htu: publicGrantUrl(), nonce }))
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    const replay = await grantAt(b, token, await dpopProof(await createDpopKey(), { htm: 'POST', htu: publicGrantUrl(), nonce }))
    expect(replay).toMatchObject({ status: 401, body: { error: 'TokenAlreadyUsed' } })
  })

  it('a DPoP proof accepted by one process is refused by the other', async () => {
    const key = await createDpopKey()
    const proof = await dpopProof(key, { htm: 'POST', htu: publicGrantUrl(), nonce: await nonceFrom(a) })
    const first = await grantAt(a, await net.as('admin').serviceAuth(GRANT), proof)
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    const replay = await grantAt(b, await net.as('admin').serviceAuth(GRANT), proof)
    expect(replay).toMatchObject({ status: 400, body: { error: 'InvalidDpop' } })
  })

  it('counts one rate limit per caller, whichever process answers', async () => {
    const caller = net.as('outsider')
    const call = async (url: string) => {
      const token = await caller.serviceAuth('example.groups.getGroup')
      return fetch(`${url}/xrpc/example.groups.getGroup?group=${encodeURIComponent(group())}`, { headers: { authorization: `Bearer ${token}` } })
    }
    const remaining: number[] = []
    for (let i = 0; i < QUERY_LIMIT; i++) {
      const res = await call(i % 2 === 0 ? a : b)
      expect(res.status).toBe(200)
      remaining.push(Number(res.headers.get('ratelimit-remaining')))
    }
    // One count across both: remaining goes down by one per call, not per process.
    expect(remaining).toEqual(Array.from({ length: QUERY_LIMIT }, (_, i) => QUERY_LIMIT - 1 - i))
    for (const url of [a, b]) {
      const refused = await call(url)
      expect(refused.status).toBe(429)
      expect(((await refused.json()) as { error: string }).error).toBe('RateLimitExceeded')
    }
  })
})
