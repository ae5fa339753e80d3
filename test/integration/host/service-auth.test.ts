import { Secp256k1Keypair } from '@atproto/crypto'
import { createServiceJwt } from '@atproto/xrpc-server'
import { describe, expect, it } from 'vitest'
import { useLocalNetwork, xrpc } from '../../support/local-network.js'
import { mintControlledDid } from '../../support/plc-identity.js'
import { signServiceJwt } from '../../support/service-jwt.js'

// Its own PLC: one test takes the directory down.
const net = useLocalNetwork({ ownIdentity: true })
const as = net.caller

const METHOD = 'example.groups.getGroup'
const now = () => Math.floor(Date.now() / 1000)

/** getGroup on the host with whatever Authorization header the test chooses. */
const getGroup = (authorization?: string) =>
  xrpc(net.stack.host.url, METHOD, { params: { group: net.group('open').did }, headers: authorization === undefined ? {} : { authorization } })

/** A refusal for bad service auth: 401 with the spec's `{error, message}` body. */
function expectUnauthorized(res: Awaited<ReturnType<typeof getGroup>>) {
  expect(res.status).toBe(401)
  expect(Object.keys(res.body).sort()).toEqual(['error', 'message'])
  expect(typeof res.body.error).toBe('string')
  expect(typeof res.body.message).toBe('string')
  expect((res.body.message as string).length).toBeGreaterThan(0)
}

describe('service auth on host methods (spec sections 5 and 7)', () => {
  it('accepts a token minted by the caller’s own PDS for this method and audience', async () => {
    const token = await as('member').serviceAuth(METHOD)
    const res = await getGroup(`Bearer ${token}`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ did: net.group('open').did, viewer: { roles: ['member'] } })
  })

  it('answers 401 without an Authorization header, or with another scheme', async () => {
    expectUnauthorized(await getGroup())
    const token = await as('member').serviceAuth(METHOD)
    expectUnauthorized(await getGroup(`Basic ${token}`))
    expectUnauthorized(await getGroup('Bearer '))
  })

  it('answers 401 for malformed tokens', async () => {
    for (const token of ['not-a-jwt', 'a.b.c', `${Buffer.from('{"alg":"ES256K"}').toString('base64url')}.${Buffer.from('[]').toString('base64url')}.sig`]) {
      expectUnauthorized(await getGroup(`Bearer ${token}`))
    }
  })

  it('answers 401 for a token signed by a key that is not in the issuer’s DID document', async () => {
    const token = await createServiceJwt({ iss: as('member').did, aud: net.stack.host.aud, lxm: METHOD, keypair: await Secp256k1Keypair.create() })
    const res = await getGroup(`Bearer ${token}`)
    expectUnauthorized(res)
    expect(res.body.error).toBe('BadJwtSignature')
  })

  it('answers 401 for an expired token, which is otherwise sound', async () => {
    const { did, key } = await mintControlledDid(net.stack.plc)
    const sound = await createServiceJwt({ iss: did, aud: net.stack.host.aud, lxm: METHOD, keypair: key })
    // The same issuer and key work while the token is fresh: only the expiry differs.
    const ok = await getGroup(`Bearer ${sound}`)
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ viewer: { roles: [], actions: [] } })

    const expired = await createServiceJwt({ iss: did, aud: net.stack.host.aud, lxm: METHOD, keypair: key, iat: now() - 120, exp: now() - 60 })
    const res = await getGroup(`Bearer ${expired}`)
    expectUnauthorized(res)
    expect(res.body.error).toBe('JwtExpired')
  })

  it('takes a token again once its signature has verified, but never the same claims under another signature, nor after its exp (issue 18)', async () => {
    const { did, key } = await mintControlledDid(net.stack.plc)
    const token = await createServiceJwt({ iss: did, aud: net.stack.host.aud, lxm: METHOD, keypair: key, iat: now(), exp: now() + 3 })
    for (let i = 0; i < 3; i++) expect((await getGroup(`Bearer ${token}`)).status).toBe(200)
    // The claims the host remembers, signed by another key: refused, the cache is by the whole token.
    const [head, body] = token.split('.')
    const forged = (await createServiceJwt({ iss: did, aud: net.stack.host.aud, lxm: METHOD, keypair: await Secp256k1Keypair.create() })).split('.')[2]!
    const res = await getGroup(`Bearer ${head}.${body}.${forged}`)
    expectUnauthorized(res)
    expect(res.body.error).toBe('BadJwtSignature')
    // The remembered token, once past its exp, is refused like any expired one.
    await new Promise((r) => setTimeout(r, 4_100))
    const late = await getGroup(`Bearer ${token}`)
    expectUnauthorized(late)
    expect(late.body.error).toBe('JwtExpired')
  })

  it('answers 401 for a token minted for another audience', async () => {
    const { serviceDid } = net.stack.host
    for (const aud of [`${serviceDid}#other`, serviceDid, `${as('owner').did}#groups`]) {
      const token = await as('member').serviceAuth(METHOD, aud)
      const res = await getGroup(`Bearer ${token}`)
      expectUnauthorized(res)
      expect(res.body.error, aud).toBe('BadJwtAudience')
    }
  })

  it('answers 401 for a token minted for another method', async () => {
    const token = await as('member').serviceAuth('example.groups.listMembers')
    const res = await getGroup(`Bearer ${token}`)
    expectUnauthorized(res)
    expect(res.body.error).toBe('BadJwtLexiconMethod')
    // And the same token does work for the method it names.
    const listed = await xrpc(net.stack.host.url, 'example.groups.listMembers', { params: { group: net.group('open').did }, headers: { authorization: `Bearer ${token}` } })
    expect(listed.status).toBe(200)
  })

  it('answers 401 for a token with no method at all', async () => {
    const { did, key } = await mintControlledDid(net.stack.plc)
    const token = await createServiceJwt({ iss: did, aud: net.stack.host.aud, lxm: null, keypair: key })
    const res = await getGroup(`Bearer ${token}`)
    expectUnauthorized(res)
    expect(res.body.error).toBe('BadJwtLexiconMethod')
  })

  it('answers 401 for a token whose issuer does not resolve', async () => {
    const token = await createServiceJwt({ iss: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa', aud: net.stack.host.aud, lxm: METHOD, keypair: await Secp256k1Keypair.create() })
    expectUnauthorized(await getGroup(`Bearer ${token}`))
  })

  it('checks auth on procedures too, before looking at the input', async () => {
    const res = await xrpc(net.stack.host.url, 'example.groups.requestJoin', { body: { group: net.group('open').did } })
    expectUnauthorized(res)
    const wrong = await as('outsider2').serviceAuth(METHOD)
    expectUnauthorized(await xrpc(net.stack.host.url, 'example.groups.requestJoin', { body: { group: net.group('open').did }, headers: { authorization: `Bearer ${wrong}` } }))
    // Nothing happened: outsider2 is still not a member.
    const view = await as('outsider2').call('example.groups.getGroup', { params: { group: net.group('open').did } })
    expect(view.body).toMatchObject({ viewer: { roles: [] } })
  })

  it('refuses a soundly signed token that lives longer than an hour, or says nothing of when it was issued', async () => {
    const { did, key } = await mintControlledDid(net.stack.plc)
    const claims = { iss: did, aud: net.stack.host.aud, lxm: METHOD, jti: 'j' }
    // The PDS's own cap, to the second, is accepted: only the lifetime differs below.
    const hour = await signServiceJwt(key, { ...claims, iat: now(), exp: now() + 3600 })
    expect((await getGroup(`Bearer ${hour}`)).status).toBe(200)

    const cases: Record<string, Record<string, unknown>> = {
      'an hour and a second': { ...claims, iat: now(), exp: now() + 3601 },
      'a day, issued a while ago': { ...claims, iat: now() - 600, exp: now() + 86_400 },
      'no iat': { ...claims, exp: now() + 60 },
      'iat not a number': { ...claims, iat: String(now()), exp: now() + 60 },
      'issued a day from now': { ...claims, iat: now() + 86_400, exp: now() + 86_400 + 60 },
    }
    for (const [name, c] of Object.entries(cases)) {
      const res = await getGroup(`Bearer ${await signServiceJwt(key, c)}`)
      expectUnauthorized(res)
      expect(res.body.error, name).toBe('BadJwtLifetime')
    }
  })
})

describe('an identity outage is a 503, not a bad token (decisions 6, item 4)', () => {
  it('answers 503 with Retry-After while the PLC cannot be reached, where the caller’s DID is not known yet; 200 once it is back', async () => {
    const { did, key } = await mintControlledDid(net.stack.plc)
    const sound = () => createServiceJwt({ iss: did, aud: net.stack.host.aud, lxm: METHOD, keypair: key })
    // A caller the host has seen keeps working from its cache during the outage.
    const member = () => as('member').serviceAuth(METHOD)
    expect((await getGroup(`Bearer ${await member()}`)).status).toBe(200)
    const memberToken = await member()
    const unknownGroup = `did:plc:${'b'.repeat(24)}`
    const memberUnknownGroupToken = await member()

    const [down, cached, unknown] = await net.running.whilePlcDown(async () => [
      await getGroup(`Bearer ${await sound()}`),
      await getGroup(`Bearer ${memberToken}`),
      // A group the host does not have, which only the PLC could place: not "unknown group".
      await xrpc(net.stack.host.url, METHOD, { params: { group: unknownGroup }, headers: { authorization: `Bearer ${memberUnknownGroupToken}` } }),
    ])
    expect(down.status).toBe(503)
    expect(down.body).toMatchObject({ error: 'ServiceUnavailable' })
    expect(down.body.message).toMatch(/PLC/)
    expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(cached.status).toBe(200)
    expect(unknown.status).toBe(503)
    expect(unknown.headers.get('retry-after')).toBeTruthy()

    const back = await getGroup(`Bearer ${await sound()}`)
    expect(back.status).toBe(200)
  })
})
