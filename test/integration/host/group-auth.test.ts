import { beforeAll, describe, expect, it } from 'vitest'
import { SignJWT, decodeJwt, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose'
import { useLocalNetwork, type Caller } from '../../support/local-network.js'
import { createDpopKey, dpopProof, fetchWithDpop, type DpopKey } from '../../support/dpop.js'
import { mintControlledDid } from '../../support/plc-identity.js'
import { signServiceJwt } from '../../support/service-jwt.js'

const net = useLocalNetwork()

const EVENT = 'community.lexicon.calendar.event'
const IMAGE = 'example.groups.eventImage'
// The public repo's collections owners and admins write (repo.write; issue 28).
const REPO = ['app.bsky.feed.post', 'app.bsky.actor.profile', 'app.bsky.feed.threadgate']
const REPO_SCOPES = REPO.map((c) => `repo:${c}`).join(' ')
const group = () => net.group('open').did
const calendar = () => `at://${group()}/space/community.lexicon.calendar/self`
const adminNotes = () => `at://${group()}/space/example.notes/admins`
const url = () => `${net.stack.host.url}/xrpc/example.groups.getGroupAuth`

interface Grant {
  did: string
  accessJwt: string
  pds: string
  collections: string[]
  repoCollections: string[]
  scope: string
  expiresAt: string
}

interface Answer<T = Record<string, unknown>> {
  status: number
  body: T & { error?: string; message?: string }
  headers: Headers
}

const answer = async <T,>(res: Response): Promise<Answer<T>> => ({ status: res.status, body: (await res.json()) as Answer<T>['body'], headers: res.headers })

/** getGroupAuth with real service auth and a DPoP proof, retrying once on a nonce challenge. */
async function getGroupAuth(caller: Caller, key: DpopKey, space = calendar(), state: { nonce?: string } = {}): Promise<Answer<Grant>> {
  const token = await caller.serviceAuth('example.groups.getGroupAuth')
  const res = await fetchWithDpop(
    key,
    url(),
    { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ group: group(), space }) },
    state,
  )
  return answer<Grant>(res)
}

/** The same call with a proof made by the test, exactly as given (and a fresh service-auth token unless one is given). */
async function withProof(caller: Caller, proof: string | undefined, space = calendar(), serviceToken?: string): Promise<Answer> {
  const token = serviceToken ?? (await caller.serviceAuth('example.groups.getGroupAuth'))
  const res = await fetch(url(), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(proof === undefined ? {} : { dpop: proof }) },
    body: JSON.stringify({ group: group(), space }),
  })
  return answer(res)
}

/** A nonce the host currently accepts (it hands one out with its challenge). */
async function currentNonce(): Promise<string> {
  const res = await withProof(net.as('admin'), await dpopProof(await createDpopKey(), { htm: 'POST', htu: url() }))
  expect(res.status).toBe(401)
  return res.headers.get('dpop-nonce')!
}

beforeAll(async () => {
  const spaces = [
    {
      type: 'community.lexicon.calendar', skey: 'self', name: 'Calendar', readableBy: ['owner', 'admin', 'moderator', 'member'],
      credentialScopes: [{ role: 'owner', scopes: ['*'] }, { role: 'admin', scopes: [IMAGE, EVENT] }],
    },
    { type: 'example.notes', skey: 'admins', name: 'Admin notes', readableBy: ['owner', 'admin', 'member'], credentialScopes: [{ role: 'admin', scopes: ['example.notes.note'] }] },
  ]
  for (const s of spaces) {
    const res = await net.as('owner').call('example.groups.createSpace', { body: { group: group(), ...s } })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
  }
})

describe('example.groups.getGroupAuth: the nonce challenge', () => {
  it('answers a proof without a nonce with 401, use_dpop_nonce and a DPoP-Nonce header, then grants on the retry', async () => {
    const key = await createDpopKey()
    const first = await withProof(net.as('admin'), await dpopProof(key, { htm: 'POST', htu: url() }))
    expect(first.status).toBe(401)
    expect(first.body.error).toBe('use_dpop_nonce')
    expect(first.headers.get('www-authenticate')).toMatch(/^DPoP error="use_dpop_nonce"/)
    const nonce = first.headers.get('dpop-nonce')
    expect(nonce).toBeTruthy()

    const retry = await withProof(net.as('admin'), await dpopProof(key, { htm: 'POST', htu: url(), nonce: nonce! }))
    expect(retry.status).toBe(200)
    expect(retry.headers.get('dpop-nonce')).toBeTruthy()
  })

  it('challenges a made-up nonce the same way', async () => {
    const res = await withProof(net.as('admin'), await dpopProof(await createDpopKey(), { htm: 'POST', htu: url(), nonce: 'made-up' }))
    expect(res.status).toBe(401)
    expect(res.headers.get('dpop-nonce')).toBeTruthy()
  })

  it('sends no nonce with a 401 for bad service auth, so that a client does not retry it', async () => {
    const res = await fetch(url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', dpop: await dpopProof(await createDpopKey(), { htm: 'POST', htu: url() }) },
      body: JSON.stringify({ group: group(), space: calendar() }),
    })
    expect(res.status).toBe(401)
    expect(res.headers.get('dpop-nonce')).toBeNull()
  })
})

describe('example.groups.getGroupAuth: the grant', () => {
  it('grants an admin the collections credentialScopes give admins, bound to the proof key, for 15 minutes', async () => {
    const key = await createDpopKey()
    const before = Date.now()
    const res = await getGroupAuth(net.as('admin'), key)
    expect(res.status).toBe(200)
    const grant = res.body
    // Admins hold repo.write, so the grant names the public repo's collections too (issue 28).
    expect(grant).toMatchObject({ did: group(), pds: net.stack.host.url, collections: [EVENT, IMAGE], repoCollections: REPO })
    expect(grant.scope).toBe(
      `atproto space:community.lexicon.calendar?authority=${group()}&skey=self&collection=${EVENT}&collection=${IMAGE}&action=create&action=update&action=delete ${REPO_SCOPES}`,
    )
    const expiresAt = Date.parse(grant.expiresAt)
    expect(expiresAt).toBeGreaterThanOrEqual(before + 15 * 60_000 - 2_000)
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 15 * 60_000 + 1_000)

    const claims = decodeJwt(grant.accessJwt)
    expect(claims).toMatchObject({ sub: group(), cnf: { jkt: key.jkt } })
    expect(claims.exp! - claims.iat!).toBe(15 * 60)
  })

  it('gives the owner, whose role has *, every collection', async () => {
    const res = await getGroupAuth(net.as('owner'), await createDpopKey())
    expect(res.status).toBe(200)
    expect(res.body.collections).toEqual(['*'])
    expect(res.body.scope).toBe(`atproto space:community.lexicon.calendar?authority=${group()}&skey=self&collection=*&action=create&action=update&action=delete ${REPO_SCOPES}`)
  })

  it('answers Forbidden when the space grants the caller’s roles nothing', async () => {
    const cases: [Parameters<typeof net.as>[0], string][] = [
      ['member', adminNotes()], // credentialScopes name only admin
      ['moderator', calendar()],
      ['member', calendar()],
      ['owner', `at://${group()}/space/members/self`], // grants no role anything
      ['outsider', calendar()], // not a member at all
    ]
    for (const [who, space] of cases) {
      const res = await getGroupAuth(net.as(who), await createDpopKey(), space)
      expect(res.status, `${who} ${space}`).toBe(400)
      expect(res.body.error, `${who} ${space}`).toBe('Forbidden')
    }
  })

  it('answers SpaceNotFound for a space the group does not have', async () => {
    const res = await getGroupAuth(net.as('admin'), await createDpopKey(), `at://${group()}/space/example.nothing/self`)
    expect(res).toMatchObject({ status: 400, body: { error: 'SpaceNotFound' } })
  })

  it('answers InvalidRequest for a space of another group', async () => {
    const res = await getGroupAuth(net.as('admin'), await createDpopKey(), `at://${net.group('approval').did}/space/members/self`)
    expect(res).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
  })
})

describe('example.groups.getGroupAuth: DPoP proofs', () => {
  it('answers DpopRequired without a DPoP header', async () => {
    const res = await withProof(net.as('admin'), undefined)
    expect(res).toMatchObject({ status: 400, body: { error: 'DpopRequired' } })
  })

  it('answers InvalidDpop for proofs that fail a check', async () => {
    const key = await createDpopKey()
    const nonce = await currentNonce()
    const good = { htm: 'POST', htu: url(), nonce }
    const now = Math.floor(Date.now() / 1000)

    const signed = await dpopProof(key, good)
    const [h, p, sig] = signed.split('.') as [string, string, string]
    const flipped = `${sig.slice(0, 10)}${sig[10] === 'A' ? 'B' : 'A'}${sig.slice(11)}`

    const extractable = await generateKeyPair('ES256', { extractable: true })
    const privateJwk = await exportJWK(extractable.privateKey)
    const { kty, crv, x, y } = privateJwk
    const sign = (claims: Record<string, unknown>, header: Record<string, unknown> = {}, signer: CryptoKey = extractable.privateKey) =>
      new SignJWT({ htm: 'POST', htu: url(), nonce, jti: crypto.randomUUID(), iat: now, ...claims })
        .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty, crv, x, y }, ...header })
        .sign(signer)
    const hmacKey = new TextEncoder().encode('a shared secret of thirty-two bytes!')

    const cases: Record<string, string> = {
      'bad signature': `${h}.${p}.${flipped}`,
      'not a JWT': 'not-a-jwt',
      'wrong htm': await dpopProof(key, { ...good, htm: 'GET' }),
      'wrong htu': await dpopProof(key, { ...good, htu: `${net.stack.host.url}/xrpc/example.groups.createSpace` }),
      'htu of another host': await dpopProof(key, { ...good, htu: 'http://127.0.0.1:9/xrpc/example.groups.getGroupAuth' }),
      'htu with a query': await sign({ htu: `${url()}?x=1` }),
      'old iat': await sign({ iat: now - 600 }),
      'iat in the future': await sign({ iat: now + 600 }),
      'no jti': await sign({ jti: undefined }),
      'private key in the jwk': await sign({}, { jwk: privateJwk }),
      'no jwk': await sign({}, { jwk: undefined }),
      'typ not dpop+jwt': await sign({}, { typ: 'JWT' }),
      'symmetric alg': await new SignJWT({ htm: 'POST', htu: url(), nonce, jti: crypto.randomUUID(), iat: now })
        .setProtectedHeader({ typ: 'dpop+jwt', alg: 'HS256', jwk: { kty: 'oct', k: Buffer.from(hmacKey).toString('base64url') } as JWK })
        .sign(hmacKey),
      'signed by another key than its jwk': await sign({}, {}, (await generateKeyPair('ES256')).privateKey),
      // A header's jwk is the caller's JSON: none of these may reach a library unchecked (they were 500s).
      'jwk a string': await sign({}, { jwk: 'x' }),
      'jwk a number': await sign({}, { jwk: 1 }),
      'jwk true': await sign({}, { jwk: true }),
      'jwk an array': await sign({}, { jwk: [] }),
      'jwk an array of the key': await sign({}, { jwk: [{ kty, crv, x, y }] }),
      'jwk null': await sign({}, { jwk: null }),
      'jwk an empty object': await sign({}, { jwk: {} }),
      'jwk without y': await sign({}, { jwk: { kty, crv, x } }),
      'jwk with a number for x': await sign({}, { jwk: { kty, crv, x: 1, y } }),
      'jwk of an unsupported curve': await sign({}, { jwk: { kty, crv: 'secp256k1', x, y } }),
      'jwk of an unsupported kty': await sign({}, { jwk: { kty: 'toString', x, y } }),
      'jwk of an X25519 key': await sign({}, { jwk: { kty: 'OKP', crv: 'X25519', x } }),
    }
    // The control: the same construction, unaltered, is accepted.
    expect((await withProof(net.as('admin'), await sign({}))).status).toBe(200)
    for (const [name, proof] of Object.entries(cases)) {
      const res = await withProof(net.as('admin'), proof)
      expect(res.status, name).toBe(400)
      expect(res.body.error, name).toBe('InvalidDpop')
      expect(typeof res.body.message, name).toBe('string')
    }
  })

  it('refuses a replayed proof (same jti), also after the host restarts; grants outlive the restart', async () => {
    const key = await createDpopKey()
    const proof = await dpopProof(key, { htm: 'POST', htu: url(), nonce: await currentNonce() })
    const granted = await withProof(net.as('admin'), proof)
    expect(granted.status).toBe(200)
    expect(await withProof(net.as('admin'), proof)).toMatchObject({ status: 400, body: { error: 'InvalidDpop' } })

    await net.running.restartHost()
    // The nonce secret survives the restart too, so the proof reaches the replay check.
    expect(await withProof(net.as('admin'), proof)).toMatchObject({ status: 400, body: { error: 'InvalidDpop' } })
    // Fresh proofs still work after it, and so does the grant made before it.
    expect((await getGroupAuth(net.as('admin'), key)).status).toBe(200)
    const { accessJwt, pds } = granted.body as unknown as Grant
    const record = { $type: EVENT, name: 'After the restart', startsAt: '2030-01-01T10:00:00.000Z', createdAt: new Date().toISOString() }
    const write = await fetchWithDpop(key, `${pds}/xrpc/com.atproto.space.createRecord`, {
      method: 'POST',
      headers: { authorization: `DPoP ${accessJwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ space: calendar(), repo: group(), collection: EVENT, record }),
      accessToken: accessJwt,
    })
    expect(write.status, await write.clone().text()).toBe(200)
  })
})

describe('example.groups.getGroupAuth: one service-auth token, one credential (decisions 6.2)', () => {
  it('takes a token once: the nonce retry still works, but a second key (or the same one) gets nothing from it, also after a restart', async () => {
    const token = await net.as('admin').serviceAuth('example.groups.getGroupAuth')
    // First use, through the nonce challenge: the challenge does not spend the token.
    const first = await withProof(net.as('admin'), await dpopProof(await createDpopKey(), { htm: 'POST', htu: url() }), calendar(), token)
    expect(first).toMatchObject({ status: 401, body: { error: 'use_dpop_nonce' } })
    const nonce = first.headers.get('dpop-nonce')!
    const key = await createDpopKey()
    const granted = await withProof(net.as('admin'), await dpopProof(key, { htm: 'POST', htu: url(), nonce }), calendar(), token)
    expect(granted.status, JSON.stringify(granted.body)).toBe(200)

    // The captured token, with a valid proof by another key: refused, and no nonce to "retry" with.
    const thief = await withProof(net.as('admin'), await dpopProof(await createDpopKey(), { htm: 'POST', htu: url(), nonce: granted.headers.get('dpop-nonce')! }), calendar(), token)
    expect(thief).toMatchObject({ status: 401, body: { error: 'TokenAlreadyUsed' } })
    expect(thief.body.message).toMatch(/used before/)
    expect(thief.headers.get('dpop-nonce')).toBeNull()
    const again = await withProof(net.as('admin'), await dpopProof(key, { htm: 'POST', htu: url(), nonce }), calendar(), token)
    expect(again).toMatchObject({ status: 401, body: { error: 'TokenAlreadyUsed' } })

    await net.running.restartHost()
    const afterRestart = await withProof(net.as('admin'), await dpopProof(await createDpopKey(), { htm: 'POST', htu: url(), nonce }), calendar(), token)
    expect(afterRestart).toMatchObject({ status: 401, body: { error: 'TokenAlreadyUsed' } })
    // A fresh token works as before.
    expect((await getGroupAuth(net.as('admin'), await createDpopKey())).status).toBe(200)
  })

  it('refuses a token without jti, which it could not take only once', async () => {
    const { did, key } = await mintControlledDid(net.stack.plc)
    const now = Math.floor(Date.now() / 1000)
    const claims = { iss: did, aud: net.stack.host.aud, lxm: 'example.groups.getGroupAuth', iat: now, exp: now + 60 }
    const nonce = await currentNonce()
    const proof = async () => dpopProof(await createDpopKey(), { htm: 'POST', htu: url(), nonce })
    const noJti = await withProof(net.as('admin'), await proof(), calendar(), await signServiceJwt(key, claims))
    expect(noJti).toMatchObject({ status: 401, body: { error: 'BadJwt' } })
    expect(noJti.body.message).toMatch(/jti/)
    // The control: the same token with a jti gets past auth, to the grant's own check (not a member).
    const withJti = await withProof(net.as('admin'), await proof(), calendar(), await signServiceJwt(key, { ...claims, jti: crypto.randomUUID() }))
    expect(withJti).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
  })
})
