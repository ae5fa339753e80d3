import { beforeAll, describe, expect, it } from 'vitest'
import { cidForLex } from '@atproto/lex-cbor'
import { isValidTid } from '@atproto/syntax'
import { createHash } from 'node:crypto'
import { SignJWT, decodeJwt, generateKeyPair, type JWTHeaderParameters } from 'jose'
import { useLocalNetwork, type Caller } from '../../support/local-network.js'
import { createDpopKey, dpopProof, fetchWithDpop, type DpopKey } from '../../support/dpop.js'
import { hostSecret } from '../../support/host-db.js'

const net = useLocalNetwork()

const EVENT = 'community.lexicon.calendar.event'
const IMAGE = 'example.groups.eventImage'
const group = () => net.group('open').did
const calendar = () => `at://${group()}/space/community.lexicon.calendar/self`
const hostUrl = (method: string) => `${net.stack.host.url}/xrpc/${method}`

interface Grant {
  accessJwt: string
  pds: string
  collections: string[]
}

interface Answer<T = Record<string, unknown>> {
  status: number
  body: T & { error?: string; message?: string }
  headers: Headers
}

const answer = async <T,>(res: Response): Promise<Answer<T>> => ({ status: res.status, body: (await res.json()) as Answer<T>['body'], headers: res.headers })

/** A group credential as the app holds it: the grant, its key, the host's latest nonce. */
interface Credential {
  grant: Grant
  key: DpopKey
  state: { nonce?: string }
}

async function credential(who: Caller, space = calendar()): Promise<Credential> {
  const key = await createDpopKey()
  const state: { nonce?: string } = {}
  const token = await who.serviceAuth('example.groups.getGroupAuth')
  const res = await fetchWithDpop(
    key,
    hostUrl('example.groups.getGroupAuth'),
    { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ group: group(), space }) },
    state,
  )
  const grant = await answer<Grant>(res)
  expect(grant.status, JSON.stringify(grant.body)).toBe(200)
  return { grant: grant.body, key, state }
}

/** A record method at the grant's `pds`, with the credential and the nonce dance. */
async function write<T = Record<string, unknown>>(cred: Credential, method: string, body: unknown, opts: { key?: DpopKey } = {}): Promise<Answer<T>> {
  const res = await fetchWithDpop(
    opts.key ?? cred.key,
    `${cred.grant.pds}/xrpc/${method}`,
    {
      method: 'POST',
      headers: { authorization: `DPoP ${cred.grant.accessJwt}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      accessToken: cred.grant.accessJwt,
    },
    cred.state,
  )
  return answer<T>(res)
}

/** A write with exactly the headers given (no nonce dance). */
async function send(method: string, headers: Record<string, string>, body: unknown): Promise<Answer> {
  return answer(await fetch(hostUrl(method), { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) }))
}

/** A refusal as an RFC 9449 resource server gives it (section 7.1): 401, a DPoP challenge, and the spec's body. */
function expectChallenge(res: Answer, error: string, code: 'invalid_dpop_proof' | 'invalid_token', what = error) {
  expect(res.status, what).toBe(401)
  expect(res.body, what).toMatchObject({ error })
  expect(Object.keys(res.body).sort(), what).toEqual(['error', 'message'])
  expect(res.headers.get('www-authenticate'), what).toMatch(new RegExp(`^DPoP error="${code}", error_description="[^"]+"`))
}

const event = (name: string) => ({ $type: EVENT, name, startsAt: '2030-05-01T18:00:00.000Z', createdAt: new Date().toISOString() })

interface StoredRecord {
  uri: string
  cid: string
  value: Record<string, unknown>
}

const listEvents = async (who: Parameters<typeof net.as>[0] = 'member', extra: Record<string, string | number> = {}) =>
  net.as(who).call<{ records: StoredRecord[]; cursor?: string }>('com.atproto.space.listRecords', {
    params: { space: calendar(), repo: group(), collection: EVENT, ...extra },
  })

let admin: Credential

beforeAll(async () => {
  const res = await net.as('owner').call('example.groups.createSpace', {
    body: {
      group: group(),
      type: 'community.lexicon.calendar',
      skey: 'self',
      name: 'Calendar',
      readableBy: ['owner', 'admin', 'moderator', 'member'],
      credentialScopes: [{ role: 'owner', scopes: ['*'] }, { role: 'admin', scopes: [EVENT, IMAGE] }],
    },
  })
  expect(res.status).toBe(200)
  admin = await credential(net.as('admin'))
})

describe('group writes with a group credential', () => {
  /** An event of the test's own, written with the admin's group credential. */
  async function createEvent(name: string) {
    const record = event(name)
    const res = await write<{ uri: string; cid: string }>(admin, 'com.atproto.space.createRecord', { space: calendar(), repo: group(), collection: EVENT, record })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return { ...res.body, rkey: res.body.uri.split('/').pop()!, record }
  }
  const putEvent = (rkey: string, record: Record<string, unknown>) =>
    write<{ uri: string; cid: string }>(admin, 'com.atproto.space.putRecord', { space: calendar(), repo: group(), collection: EVENT, rkey, record })
  const kindsFor = async (uri: string) =>
    (await net.as('owner').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: group(), limit: 100 } })).body.changes
      .filter((c) => c.subject === uri)
      .map((c) => c.kind)

  it('createRecord stores a calendar event under a host-assigned TID and answers {uri, cid}', async () => {
    const { uri, rkey, cid, record } = await createEvent('Picnic')
    expect(isValidTid(rkey)).toBe(true)
    expect(uri).toBe(`${calendar()}/${group()}/${EVENT}/${rkey}`)
    // A real CID: that of the record's DAG-CBOR encoding.
    expect(cid).toBe((await cidForLex(record)).toString())

    const listed = await listEvents('member', { limit: 100 })
    expect(listed.body.records).toContainEqual({ uri, cid, value: record })
    const one = await net.as('member').call('com.atproto.space.getRecord', { params: { space: calendar(), repo: group(), collection: EVENT, rkey } })
    expect(one).toMatchObject({ status: 200, body: { uri, cid, value: record } })
  })

  it('putRecord overwrites at a stable rkey', async () => {
    const { uri, rkey } = await createEvent('Picnic')
    const record = event('Picnic (moved indoors)')
    const res = await putEvent(rkey, record)
    expect(res).toMatchObject({ status: 200, body: { uri, cid: (await cidForLex(record)).toString() } })
    const listed = await listEvents('member', { limit: 100 })
    expect(listed.body.records.filter((r) => r.uri === uri).map((r) => r.value.name)).toEqual(['Picnic (moved indoors)'])
  })

  it('every write enters the change log', async () => {
    const { uri, rkey } = await createEvent('Picnic')
    expect((await putEvent(rkey, event('Picnic (moved indoors)'))).status).toBe(200)
    expect(await kindsFor(uri)).toEqual(['record.created', 'record.updated'])
  })

  it('deleteRecord removes it', async () => {
    const { uri, rkey } = await createEvent('Picnic')
    expect((await putEvent(rkey, event('Picnic (moved indoors)'))).status).toBe(200)
    const res = await write(admin, 'com.atproto.space.deleteRecord', { space: calendar(), repo: group(), collection: EVENT, rkey })
    expect(res).toMatchObject({ status: 200, body: {} })
    const one = await net.as('member').call('com.atproto.space.getRecord', { params: { space: calendar(), repo: group(), collection: EVENT, rkey } })
    expect(one).toMatchObject({ status: 400, body: { error: 'RecordNotFound' } })
    expect((await listEvents('member', { limit: 100 })).body.records.map((r) => r.uri)).not.toContain(uri)
    expect(await kindsFor(uri)).toEqual(['record.created', 'record.updated', 'record.deleted'])
  })

  it('accepts an event image', async () => {
    const record = { $type: IMAGE, imageUrl: 'https://example.com/picnic.png', alt: 'A picnic', createdAt: new Date().toISOString() }
    const res = await write(admin, 'com.atproto.space.createRecord', { space: calendar(), repo: group(), collection: IMAGE, record })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
  })

  it('lists in pages, newest first', async () => {
    for (const name of ['One', 'Two', 'Three']) {
      expect((await write(admin, 'com.atproto.space.createRecord', { space: calendar(), repo: group(), collection: EVENT, record: event(name) })).status).toBe(200)
    }
    const first = await listEvents('member', { limit: 2 })
    expect(first.body.records.map((r) => r.value.name)).toEqual(['Three', 'Two'])
    expect(first.body.cursor).toBeTruthy()
    const second = await listEvents('member', { limit: 2, cursor: first.body.cursor! })
    expect(second.body.records[0]?.value.name).toBe('One')
    // Page after page to the end, each cursor picking up where the last page ended: the whole list, once.
    const seen = [...first.body.records, ...second.body.records]
    for (let cursor = second.body.cursor; cursor; ) {
      const page = await listEvents('member', { limit: 2, cursor })
      seen.push(...page.body.records)
      cursor = page.body.cursor
    }
    expect(seen).toEqual((await listEvents('member', { limit: 100 })).body.records)
  })

  it('is read only by members whose roles may read the space', async () => {
    expect(await listEvents('outsider')).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
  })
})

describe('what a group credential may not do', () => {
  const body = (patch: Record<string, unknown> = {}) => ({ space: calendar(), repo: group(), collection: EVENT, record: event('Refused'), ...patch })

  it('refuses a repo other than the group', async () => {
    const res = await write(admin, 'com.atproto.space.createRecord', body({ repo: net.as('admin').did }))
    expect(res).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
  })

  it('refuses a collection outside the token', async () => {
    const res = await write(admin, 'com.atproto.space.createRecord', body({ collection: 'example.groups.rsvp', record: { $type: 'example.groups.rsvp' } }))
    expect(res).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    const del = await write(admin, 'com.atproto.space.deleteRecord', { space: calendar(), repo: group(), collection: 'example.notes.note', rkey: 'x' })
    expect(del).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
  })

  it('refuses another space than the one it was granted for', async () => {
    const res = await write(admin, 'com.atproto.space.createRecord', body({ space: `at://${group()}/space/members/self` }))
    expect(res).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
  })

  it('refuses records that do not match their lexicon or collection', async () => {
    // The published event lexicon requires a name and createdAt only (another app may leave the start out).
    const { name: _name, ...noName } = event('No name')
    const cases = [
      body({ record: noName }),
      body({ record: { ...event('Bad date'), startsAt: 'next tuesday' } }),
      body({ record: { ...event('Wrong type'), $type: IMAGE } }),
      body({ record: { name: 'No type', startsAt: '2030-05-01T18:00:00.000Z', createdAt: new Date().toISOString() } }),
      body({ rkey: 'not-a-tid' }),
      body({ collection: IMAGE, record: { $type: IMAGE, createdAt: new Date().toISOString(), alt: 42 } }),
    ]
    for (const c of cases) {
      const res = await write(admin, 'com.atproto.space.createRecord', c)
      expect(res.status, JSON.stringify(c)).toBe(400)
      expect(res.body.error, JSON.stringify(c)).toBe('InvalidRequest')
    }
  })

  it('refuses a proof without ath, or with the ath of another token: 401 with a DPoP challenge', async () => {
    const nonce = admin.state.nonce
    expect(nonce).toBeTruthy()
    for (const accessToken of [undefined, `${admin.grant.accessJwt}x`]) {
      const proof = await dpopProof(admin.key, { htm: 'POST', htu: hostUrl('com.atproto.space.createRecord'), nonce, accessToken })
      const res = await send('com.atproto.space.createRecord', { authorization: `DPoP ${admin.grant.accessJwt}`, dpop: proof }, body())
      expectChallenge(res, 'InvalidDpop', 'invalid_dpop_proof')
      expect(res.body.message).toMatch(/ath/)
    }
  })

  it('refuses a proof from another key than the token is bound to: 401 with a DPoP challenge, no nonce to retry with', async () => {
    const res = await write(admin, 'com.atproto.space.createRecord', body(), { key: await createDpopKey() })
    expectChallenge(res, 'InvalidDpop', 'invalid_dpop_proof')
    expect(res.body.message).toMatch(/another key/)
    expect(res.headers.get('dpop-nonce')).toBeNull()
  })

  it('refuses a replayed proof: 401 with a DPoP challenge', async () => {
    const proof = await dpopProof(admin.key, { htm: 'POST', htu: hostUrl('com.atproto.space.createRecord'), nonce: admin.state.nonce, accessToken: admin.grant.accessJwt })
    const headers = { authorization: `DPoP ${admin.grant.accessJwt}`, dpop: proof }
    const first = await send('com.atproto.space.createRecord', headers, body({ record: event('Once') }))
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    const replay = await send('com.atproto.space.createRecord', headers, body({ record: event('Twice') }))
    expectChallenge(replay, 'InvalidDpop', 'invalid_dpop_proof')
    expect(replay.body.message).toMatch(/used before/)
    expect((await listEvents()).body.records.filter((r) => r.value.name === 'Twice')).toEqual([])
  })

  it('answers a proof whose jwk is not a public key with 401 and a DPoP challenge on every write method (never a 500)', async () => {
    const now = Math.floor(Date.now() / 1000)
    const { privateKey } = await generateKeyPair('ES256')
    const ath = createHash('sha256').update(admin.grant.accessJwt).digest('base64url')
    const methods: Record<string, Record<string, unknown>> = {
      'com.atproto.space.createRecord': body(),
      'com.atproto.space.putRecord': body({ rkey: '3jzfcijpj2z2a' }),
      'com.atproto.space.deleteRecord': { space: calendar(), repo: group(), collection: EVENT, rkey: '3jzfcijpj2z2a' },
    }
    const jwks: unknown[] = ['x', 1, true, [], null, {}, { kty: 'EC', crv: 'P-256' }, { kty: 'EC', crv: 'P-256', x: 'eA', y: 'eQ', d: 'ZA' }, { kty: 'oct', k: 'c2VjcmV0' }, { kty: 'EC', crv: 'secp256k1', x: 'eA', y: 'eQ' }]
    for (const [method, input] of Object.entries(methods)) {
      for (const jwk of jwks) {
        const proof = await new SignJWT({ htm: 'POST', htu: hostUrl(method), nonce: admin.state.nonce, jti: crypto.randomUUID(), iat: now, ath })
          .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk } as unknown as JWTHeaderParameters)
          .sign(privateKey)
        const res = await send(method, { authorization: `DPoP ${admin.grant.accessJwt}`, dpop: proof }, input)
        expectChallenge(res, 'InvalidDpop', 'invalid_dpop_proof', `${method} jwk ${JSON.stringify(jwk)}`)
      }
    }
  })

  it('answers DpopRequired without a proof, 401 with a challenge', async () => {
    const noProof = await send('com.atproto.space.createRecord', { authorization: `DPoP ${admin.grant.accessJwt}` }, body())
    expectChallenge(noProof, 'DpopRequired', 'invalid_dpop_proof')
  })

  it('answers odd Authorization headers with 401 and a DPoP challenge, never a 5xx', async () => {
    const serviceAuth = await net.as('admin').serviceAuth('com.atproto.space.createRecord')
    const proof = () => dpopProof(admin.key, { htm: 'POST', htu: hostUrl('com.atproto.space.createRecord'), nonce: admin.state.nonce, accessToken: admin.grant.accessJwt })
    const cases: Record<string, string | undefined> = {
      none: undefined,
      'a Bearer service-auth token': `Bearer ${serviceAuth}`,
      'the credential as Bearer': `Bearer ${admin.grant.accessJwt}`,
      'Basic': 'Basic YTpi',
      'DPoP alone': 'DPoP',
      'DPoP with two tokens': `DPoP ${admin.grant.accessJwt} ${admin.grant.accessJwt}`,
      'DPoP garbage': 'DPoP garbage',
      'DPoP a.b.c': 'DPoP a.b.c',
      'DPoP a JWT of JSON garbage': `DPoP ${Buffer.from('"x"').toString('base64url')}.${Buffer.from('[1]').toString('base64url')}.c2ln`,
      'DPoP a service-auth token': `DPoP ${serviceAuth}`,
    }
    for (const [name, authorization] of Object.entries(cases)) {
      const res = await send('com.atproto.space.createRecord', { ...(authorization === undefined ? {} : { authorization }), dpop: await proof() }, body())
      expect(res.status, name).toBe(401)
      expect(Object.keys(res.body).sort(), name).toEqual(['error', 'message'])
      expect(res.headers.get('www-authenticate'), name).toMatch(/^DPoP /)
      if (/^DPoP ./.test(authorization ?? '') && name !== 'DPoP with two tokens') expect(res.headers.get('www-authenticate'), name).toMatch(/^DPoP error="invalid_token"/)
    }
  })

  it('refuses a token the host did not issue, or one past its expiry: 401 invalid_token', async () => {
    const forged = await new SignJWT({ cnf: { jkt: admin.key.jkt } })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setSubject(group())
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('not the host secret, but long enough'))
    const res = await write({ ...admin, grant: { ...admin.grant, accessJwt: forged } }, 'com.atproto.space.createRecord', body())
    expectChallenge(res, 'InvalidToken', 'invalid_token')

    // The same claims as the real token, signed with the host's own secret, but expired.
    const claims = decodeJwt(admin.grant.accessJwt)
    const expired = await new SignJWT({ ...claims, iat: claims.iat! - 3600, exp: claims.iat! - 60 })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .sign(Buffer.from(await hostSecret(net.running, 'groupTokenSecret'), 'hex'))
    const late = await write({ ...admin, grant: { ...admin.grant, accessJwt: expired } }, 'com.atproto.space.createRecord', body())
    expectChallenge(late, 'ExpiredToken', 'invalid_token')
  })

  it('challenges a first request without a nonce: 401 with DPoP-Nonce, then the retry succeeds', async () => {
    const fresh: Credential = { ...admin, state: {} }
    const proof = await dpopProof(fresh.key, { htm: 'POST', htu: hostUrl('com.atproto.space.createRecord'), accessToken: fresh.grant.accessJwt })
    const first = await fetch(hostUrl('com.atproto.space.createRecord'), {
      method: 'POST',
      headers: { authorization: `DPoP ${fresh.grant.accessJwt}`, dpop: proof, 'content-type': 'application/json' },
      body: JSON.stringify(body({ record: event('After a nonce') })),
    })
    expect(first.status).toBe(401)
    expect(first.headers.get('dpop-nonce')).toBeTruthy()
    await first.body?.cancel()
    const res = await write(fresh, 'com.atproto.space.createRecord', body({ record: event('After a nonce') }))
    expect(res.status).toBe(200)
  })

  it('stops working as soon as the space no longer grants the role, without waiting for expiry', async () => {
    const narrowed = await net.as('owner').call('example.groups.updateSpace', {
      body: { group: group(), space: calendar(), credentialScopes: [{ role: 'owner', scopes: ['*'] }, { role: 'admin', scopes: [IMAGE] }] },
    })
    expect(narrowed.status).toBe(200)
    const res = await write(admin, 'com.atproto.space.createRecord', body())
    expect(res).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    const image = { $type: IMAGE, imageUrl: 'https://example.com/x.png', createdAt: new Date().toISOString() }
    expect((await write(admin, 'com.atproto.space.createRecord', body({ collection: IMAGE, record: image }))).status).toBe(200)
  })
})
