import http from 'node:http'
import { randomBytes } from 'node:crypto'
import { Secp256k1Keypair } from '@atproto/crypto'
import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { createDpopKey, dpopProof } from '../../support/dpop.js'
import { signServiceJwt } from '../../support/service-jwt.js'

/**
 * What a caller without valid credentials can make the host do, and that all of it is
 * counted against their address (issue 22). A low per-IP limit; each test calls from an
 * address of its own on the loopback network (127.0.0.0/8), so each starts with the
 * whole allowance.
 */
const LIMIT = 5
const net = useLocalNetwork({ hostRateLimits: `unauthenticated=${LIMIT}`, ownIdentity: true })

interface Answer {
  status: number
  body: Record<string, unknown>
  headers: http.IncomingHttpHeaders
}

/**
 * A request to the host sent from `localAddress`, on a connection of its own; with
 * `bodyAfterMs`, its headers go at once and its body that much later (a slow upload).
 */
function fromAddress(
  localAddress: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; bodyAfterMs?: number } = {},
): Promise<Answer> {
  const url = new URL(path, net.stack.host.url)
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? 'GET', headers: init.headers, localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        let body: Record<string, unknown> = {}
        try {
          body = text ? (JSON.parse(text) as Record<string, unknown>) : {}
        } catch {
          body = { raw: text }
        }
        resolve({ status: res.statusCode!, body, headers: res.headers })
      })
    })
    req.on('error', reject)
    if (init.bodyAfterMs === undefined) return void req.end(init.body)
    req.flushHeaders()
    setTimeout(() => req.end(init.body), init.bodyAfterMs)
  })
}

const GET_GROUP_AUTH = '/xrpc/example.groups.getGroupAuth'
const group = () => net.group('open').did
const members = () => `at://${group()}/space/members/self`
const madeUpDid = () => `did:plc:${[...randomBytes(24)].map((b) => 'abcdefghijklmnopqrstuvwxyz234567'[b % 32]).join('')}`
/** The same proof with one character of its signature changed. */
const breakSignature = (proof: string) => proof.slice(0, -6) + (proof.at(-6) === 'A' ? 'B' : 'A') + proof.slice(-5)

async function getGroupAuth(from: string, token: string, proof: string): Promise<Answer> {
  return fromAddress(from, GET_GROUP_AUTH, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', dpop: proof },
    body: JSON.stringify({ group: group(), space: members() }),
  })
}

describe('DPoP nonce challenges (issue 22)', () => {
  it('counts each nonce challenge against the address: one nonce-less proof sent again and again ends in 429', async () => {
    const from = '127.0.0.2'
    const token = await net.as('admin').serviceAuth('example.groups.getGroupAuth')
    const proof = await dpopProof(await createDpopKey(), { htm: 'POST', htu: new URL(GET_GROUP_AUTH, net.stack.host.url).href })
    for (let i = 0; i < LIMIT; i++) {
      const challenged = await getGroupAuth(from, token, proof)
      expect(challenged.status).toBe(401)
      expect(challenged.body.error).toBe('use_dpop_nonce')
      expect(challenged.headers['dpop-nonce']).toBeTruthy()
    }
    const refused = await getGroupAuth(from, token, proof)
    expect(refused).toMatchObject({ status: 429, body: { error: 'RateLimitExceeded' } })
    expect(refused.headers['ratelimit-limit']).toBe(String(LIMIT))
    // Counted per address: another one still gets its challenge.
    expect((await getGroupAuth('127.0.0.3', token, proof)).body.error).toBe('use_dpop_nonce')
  })

  it('checks the nonce before the signature: a nonce-less proof with a broken signature gets the nonce challenge', async () => {
    const from = '127.0.0.4'
    const key = await createDpopKey()
    const token = await net.as('admin').serviceAuth('example.groups.getGroupAuth')
    const broken = breakSignature(await dpopProof(key, { htm: 'POST', htu: new URL(GET_GROUP_AUTH, net.stack.host.url).href }))
    const resource = await getGroupAuth(from, token, broken)
    expect(resource).toMatchObject({ status: 401, body: { error: 'use_dpop_nonce' } })
    // With the nonce it was handed, the same broken signature is refused for what it is.
    const nonce = resource.headers['dpop-nonce'] as string
    const stillBroken = breakSignature(await dpopProof(key, { htm: 'POST', htu: new URL(GET_GROUP_AUTH, net.stack.host.url).href, nonce }))
    expect(await getGroupAuth(from, token, stillBroken)).toMatchObject({ status: 400, body: { error: 'InvalidDpop' } })

    // The authorization server's own DPoP (PAR) in the same order.
    const par = new URL('/oauth/par', net.stack.host.url).href
    const clientId = `http://localhost?redirect_uri=${encodeURIComponent('http://127.0.0.1/callback')}&scope=atproto`
    const form = new URLSearchParams({ client_id: clientId, response_type: 'code', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256', login_hint: net.group('open').handle })
    const answer = await fromAddress(from, '/oauth/par', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: breakSignature(await dpopProof(key, { htm: 'POST', htu: par })) },
      body: form.toString(),
    })
    expect(answer).toMatchObject({ status: 400, body: { error: 'use_dpop_nonce' } })
  })
})

describe('requests whose credentials are still being checked (issue 22)', () => {
  it('counts them while in flight: many bad tokens sent at once cost at most the allowance in DID look-ups', async () => {
    const from = '127.0.0.5'
    const key = await Secp256k1Keypair.create()
    const now = Math.floor(Date.now() / 1000)
    const issuers = Array.from({ length: 3 * LIMIT }, madeUpDid)
    const tokens = await Promise.all(
      issuers.map((iss) => signServiceJwt(key, { iss, aud: net.stack.host.aud, lxm: 'example.groups.getGroup', iat: now, exp: now + 60 })),
    )
    const answers = await Promise.all(
      tokens.map((token) => fromAddress(from, `/xrpc/example.groups.getGroup?group=${encodeURIComponent(group())}`, { headers: { authorization: `Bearer ${token}` } })),
    )
    const statuses = answers.map((a) => a.status)
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LIMIT)
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2 * LIMIT)
    const lookups = issuers.reduce((n, did) => n + net.running.plcLookups(did), 0)
    expect(lookups).toBeLessThanOrEqual(LIMIT)
  })

  it('counts a request to the sign-in endpoints as it arrives, whatever Authorization header it carries', async () => {
    // Slow uploads, so that every request has arrived before the first is answered.
    const body = 'client_id=x'
    const headers = { authorization: 'Bearer junk', 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.length) }
    const answers = await Promise.all(
      Array.from({ length: 3 * LIMIT }, () => fromAddress('127.0.0.6', '/oauth/par', { method: 'POST', headers, body, bodyAfterMs: 300 }).catch(() => null)),
    )
    expect(answers.filter((a) => a?.status === 429).length).toBe(2 * LIMIT)
  })
})
