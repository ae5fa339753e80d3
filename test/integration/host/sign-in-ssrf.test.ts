import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Secp256k1Keypair } from '@atproto/crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { startTripwire } from '../../support/tripwire-server.js'
import { startHostileAuthServer, type HostileBehaviour } from '../../support/hostile-auth-server.js'
import { createDpopKey, dpopProof } from '../../support/dpop.js'
import { mintPlcDid } from '../../../src/host/identity/plc.js'
import { startHost, type RunningHost } from '../../../src/host/server.js'
import { createHostLogger } from '../../../src/host/log/logger.js'
import { parseRateLimits } from '../../../src/host/limits/rate-limits.js'

/**
 * The group sign-in's own OAuth client at people's PDSes (issue 22, finding 1): what a
 * person types into the sign-in form decides where the host connects (their DID
 * document, their PDS's metadata, the PAR and token endpoints named there). Every one
 * of those requests goes through the host's guarded fetch: never this machine or its
 * network (loopback only with --allow-loopback-peers; private and link-local never),
 * no redirect followed, time and size capped. The person gets the sign-in page back
 * saying which step failed, never a 500, a hang or the details.
 */
const net = useLocalNetwork()
let trip: Awaited<ReturnType<typeof startTripwire>>
/** A host of our own on the same network, started without --allow-loopback-peers (as in production). */
let strict: RunningHost
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-sign-in-ssrf-'))

beforeAll(async () => {
  trip = await startTripwire()
  const seedFile = path.join(work, 'seed.json')
  const handle = `strict-${crypto.randomBytes(3).toString('hex')}.groups.test`
  fs.writeFileSync(seedFile, JSON.stringify({ groups: [{ handle, joinPolicy: 'open', owner: net.as('owner').did }] }))
  strict = await startHost(
    {
      port: 0, bind: '127.0.0.1', publicUrl: '', dataDir: path.join(work, 'host'), plcUrl: net.stack.plc, seedFile,
      handleDomains: ['.groups.test'], rateLimits: parseRateLimits(undefined), maxGroupsPerAccount: 100, allowLoopbackPeers: false,
      handleResolverUrl: net.stack.pds, hostKey: crypto.randomBytes(32),
    },
    createHostLogger({ level: 'silent' }),
  )
})
afterAll(async () => {
  await trip?.close()
  await strict?.close()
  fs.rmSync(work, { recursive: true, force: true })
})

const CLIENT_ID = `http://localhost?redirect_uri=${encodeURIComponent('http://127.0.0.1/callback')}&scope=atproto`

/**
 * The sign-in page of a fresh group sign-in at `hostUrl`, as a browser holds it (cookie
 * and form token): `type` posts what the person types into its form.
 */
async function signInForm(hostUrl: string, groupHandle: string) {
  const at = (p: string) => new URL(p, hostUrl).href
  const key = await createDpopKey()
  const form = new URLSearchParams({
    client_id: CLIENT_ID,
    response_type: 'code',
    redirect_uri: 'http://127.0.0.1:1234/callback',
    scope: 'atproto',
    code_challenge: crypto.randomBytes(32).toString('base64url'),
    code_challenge_method: 'S256',
    login_hint: groupHandle,
  }).toString()
  const par = async (nonce?: string) =>
    fetch(at('/oauth/par'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: await dpopProof(key, { htm: 'POST', htu: at('/oauth/par'), nonce }) },
      body: form,
    })
  let res = await par()
  if (res.status === 400) res = await par(res.headers.get('dpop-nonce')!)
  expect(res.status).toBe(201)
  const { request_uri } = (await res.json()) as { request_uri: string }
  const page = await fetch(`${at('/oauth/authorize')}?${new URLSearchParams({ client_id: CLIENT_ID, request_uri })}`)
  expect(page.status).toBe(200)
  const cookie = page.headers.get('set-cookie')!.split(';')[0]!
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!
  return {
    async type(handle: string) {
      const started = Date.now()
      const answer = await fetch(at('/oauth/authorize/sign-in'), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams({ request_uri, csrf, handle }).toString(),
      })
      return { status: answer.status, html: await answer.text(), ms: Date.now() - started }
    },
  }
}

/** A did:plc on the network's PLC whose PDS is `pds` (the person's own, as they publish it). */
async function personAt(pds: string): Promise<string> {
  const key = await Secp256k1Keypair.create({ exportable: true })
  return mintPlcDid({ plcUrl: net.stack.plc, rotationKey: key, signingKey: key, services: { atproto_pds: { type: 'AtprotoPersonalDataServer', endpoint: pds } } })
}

/** A person whose PDS (on loopback, which --allow-loopback-peers lets through) behaves as `behaviour` says. */
async function hostilePerson(behaviour: HostileBehaviour) {
  const server = await startHostileAuthServer(behaviour)
  cleanups.push(server.close)
  return { server, did: await personAt(server.url) }
}
const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const c of cleanups) await c()
})

/** What the sign-in page says went wrong: which step, in plain words, and nothing of how. */
const SAYS = {
  noAccount: /No account was found for \S+\. Check the handle\./,
  unreachable: /The server of \S+ could not be reached in time\. Try again later\./,
  refusedAddress: /The server of \S+ is at an address this group host does not contact\./,
  notUnderstood: /The server of \S+ answered in a way this group host does not understand, so you cannot sign in with it here\./,
}

/** The sign-in page again, saying which step failed (`says`), and no detail of it. */
function expectRefusedPage(answer: { status: number; html: string }, says: RegExp) {
  expect(answer.status, answer.html).toBe(400)
  const alert = /<p role="alert" id="handle-error">([^<]*)<\/p>/.exec(answer.html)?.[1]
  expect(alert, answer.html).toMatch(new RegExp(`^${says.source}$`))
  expect(answer.html).toMatch(/<label for="handle">Your handle<\/label>/)
  // Beside what the person typed, nothing of where it failed or why (addresses, error text).
  const typed = /id="handle"[^>]* value="([^"]*)"/.exec(answer.html)![1]!
  expect(alert!.replace(typed, '')).not.toMatch(/127\.0\.0\.1|localhost|\d+\.\d+\.\d+|https?:|error|fetch|hostname|abort/i)
}

/** Runs `fn` and says how many connections the tripwire got meanwhile. */
async function hitsDuring(tripwire: { connections: number }, fn: () => Promise<unknown>): Promise<number> {
  const before = tripwire.connections
  await fn()
  return tripwire.connections - before
}

/** The host process's resident memory in bytes, where the system tells (Linux). */
function hostMemory(): number | undefined {
  const pid = net.running.hostPids()[0]
  const status = `/proc/${pid}/status`
  if (!pid || !fs.existsSync(status)) return undefined
  const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(status, 'utf8'))?.[1]
  return kb === undefined ? undefined : Number(kb) * 1024
}

/** One of this machine's own addresses that is neither loopback nor public (its network). */
const ownNetworkAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((a) => a && !a.internal && a.family === 'IPv4')?.address

describe('a host without --allow-loopback-peers (production)', () => {
  it('connects to no address on its own machine, whatever DID the person types', async () => {
    const form = await signInForm(strict.url, strict.groups[0]!.handle)
    const typed: [string, RegExp][] = [
      [`did:web:localhost%3A${trip.port}`, SAYS.refusedAddress],
      // Not a did:web atproto takes (an IP, a port): no account can have it.
      [`did:web:127.0.0.1%3A${trip.port}`, SAYS.noAccount],
      [await personAt(`https://127.0.0.1:${trip.port}`), SAYS.refusedAddress],
      [await personAt(`https://localhost:${trip.port}`), SAYS.refusedAddress],
    ]
    for (const [handle, says] of typed) {
      let answer!: Awaited<ReturnType<typeof form.type>>
      expect(await hitsDuring(trip, async () => (answer = await form.type(handle))), handle).toBe(0)
      expectRefusedPage(answer, says)
      expect(answer.ms, `${handle}: refused, not timed out`).toBeLessThan(3000)
    }
  })
})

describe('the local network’s host (--allow-loopback-peers): loopback peers, but nothing else', () => {
  const group = () => net.group('open').handle

  it('fetches no DID document from loopback: did:web stays public-only', async () => {
    const form = await signInForm(net.stack.host.url, group())
    for (const [handle, says] of [
      [`did:web:localhost%3A${trip.port}`, SAYS.refusedAddress],
      [`did:web:127.0.0.1%3A${trip.port}`, SAYS.noAccount],
    ] as const) {
      let answer!: Awaited<ReturnType<typeof form.type>>
      expect(await hitsDuring(trip, async () => (answer = await form.type(handle))), handle).toBe(0)
      expectRefusedPage(answer, says)
    }
  })

  it('follows no redirect from the PAR endpoint its metadata names', async () => {
    const { server, did } = await hostilePerson({ parRedirect: `${trip.url}/followed` })
    const form = await signInForm(net.stack.host.url, group())
    let answer!: Awaited<ReturnType<typeof form.type>>
    expect(await hitsDuring(trip, async () => (answer = await form.type(did)))).toBe(0)
    // A redirect is an answer the host does not take.
    expectRefusedPage(answer, SAYS.notUnderstood)
    // The PAR was sent (so the test reached the redirect), and the redirect not followed.
    expect(server.paths).toContain('/par')
    expect(trip.paths).not.toContain('/followed')
  })

  it.skipIf(!ownNetworkAddress)('sends no PAR to a private address of its own network, named in the metadata', async () => {
    const inside = await startTripwire(ownNetworkAddress)
    cleanups.push(inside.close)
    const { server, did } = await hostilePerson({ parEndpoint: `https://${ownNetworkAddress}:${inside.port}/par` })
    const form = await signInForm(net.stack.host.url, group())
    let answer!: Awaited<ReturnType<typeof form.type>>
    expect(await hitsDuring(inside, async () => (answer = await form.type(did)))).toBe(0)
    expectRefusedPage(answer, SAYS.refusedAddress)
    expect(server.paths).toContain('/.well-known/oauth-authorization-server')
  })

  it('stops waiting for a server that never answers', async () => {
    const { server, did } = await hostilePerson({ stall: true })
    const form = await signInForm(net.stack.host.url, group())
    const answer = await form.type(did)
    expectRefusedPage(answer, SAYS.unreachable)
    expect(server.paths).toContain('/.well-known/oauth-authorization-server')
    expect(answer.ms).toBeLessThan(12_000)
  }, 30_000)

  it('stops reading a metadata document that never ends, and its memory does not grow with it', async () => {
    const { did } = await hostilePerson({ endless: true })
    const form = await signInForm(net.stack.host.url, group())
    const before = hostMemory()
    const answer = await form.type(did)
    expectRefusedPage(answer, SAYS.notUnderstood)
    expect(answer.ms).toBeLessThan(12_000)
    if (before !== undefined) expect(hostMemory()! - before).toBeLessThan(100 * 1024 * 1024)
  }, 30_000)

  it('says so when the person’s server answers nonsense', async () => {
    const { did } = await hostilePerson({ nonsense: true })
    const form = await signInForm(net.stack.host.url, group())
    expectRefusedPage(await form.type(did), SAYS.notUnderstood)
  })

  it('says so when no account has the handle', async () => {
    const form = await signInForm(net.stack.host.url, group())
    expectRefusedPage(await form.type(`nobody-${crypto.randomBytes(4).toString('hex')}.test`), SAYS.noAccount)
  })

  it('follows no redirect from the token endpoint either (the callback), and answers a page', async () => {
    const { server, did } = await hostilePerson({ tokenRedirect: `${trip.url}/followed` })
    const form = await signInForm(net.stack.host.url, group())
    const onwards = await form.type(did)
    // The hostile server took the PAR: the person is sent there to sign in.
    expect(onwards.status, onwards.html).toBe(200)
    expect(onwards.html).toContain(`${server.url}/authorize`)
    const state = server.states.at(-1)!
    // Back from there, the host exchanges the code at the token endpoint, which redirects.
    const callback = new URL('/oauth/upstream/callback', net.stack.host.url)
    callback.search = new URLSearchParams({ code: 'hostile', state, iss: server.url }).toString()
    let answer!: Response
    expect(await hitsDuring(trip, async () => (answer = await fetch(callback, { redirect: 'manual' })))).toBe(0)
    expect(answer.status).toBe(400)
    expect(await answer.text()).toContain('Your server did not confirm the sign-in')
    expect(server.paths).toContain('/token')
    expect(trip.paths).not.toContain('/followed')
  })
})
