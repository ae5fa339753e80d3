import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFuzzHost, send, PEOPLE, type FuzzHost, type Person, type RawRequest, type RawResponse } from './fuzz-host.js'
import { bodyArb, methodsOf, paramsArb, readLexicons, recordTypesOf, subscriptionsOf, type ArbContext, type FuzzWorld, type LexMethod } from './lexicon-arbitraries.js'
import { contentEncodingArb, contentTypeArb, extraHeadersArb, httpMethodArb, malformedBodyArb, pathArb, rawQueryArb, type BodySpec } from './envelope-arbitraries.js'
import { GOOD_PROOF, createProofKey, garbageAuthArb, materializeAuth, materializeProof, proofSpecArb, type AuthSpec, type DpopSpec, type ProofKey } from './garbage-auth.js'
import { startTripwire } from '../support/tripwire-server.js'
import { FUZZ, fuzzProperty, runsFor, testTimeoutFor, type Answer } from './fuzz-runner.js'
import { FUZZ_CLIENT_ID, FUZZ_REDIRECT_URI, cookieChoiceArb, extraFieldsArb, formBodyArb, formBodyBytes, formContentTypeArb, parFieldsArb, typedHandleArb, type FieldSpec, type FormBodySpec } from './oauth-arbitraries.js'
import { upgrade, type Handshake } from './stream-upgrade.js'
import { encodedImageBody, imageBodyArb, imageBytes, imageContentTypeArb } from './image-arbitraries.js'
import { imageTypeOf } from '../../src/shared/image-type.js'

/**
 * The fuzz suite (issue 13, item 7): property-based requests to a real running host,
 * built from every lexicon in `lexicons/`, with garbage around them (auth, DPoP, HTTP).
 * The property throughout: no answer is a 5xx, refusals are `{error, message}`, nothing
 * hangs, and the host is alive afterwards. See docs/host.md, "Fuzzing".
 */

const docs = readLexicons()
const methods = methodsOf(docs)
const subscriptions = subscriptionsOf(docs)
const recordTypes = recordTypesOf(docs)
/** Group writes take a group credential, not service auth. */
const GROUP_WRITES = ['com.atproto.space.createRecord', 'com.atproto.space.putRecord', 'com.atproto.space.deleteRecord']
const GROUP_AUTH = 'example.groups.getGroupAuth'

let host: FuzzHost
let world: FuzzWorld
let proofKey: ProofKey
let otherProofKey: ProofKey
/** The host's latest DPoP nonce, from any answer's `DPoP-Nonce`. */
const dpopState: { nonce?: string } = {}
/** The writes group's calendar space, where group credentials are fuzzed. */
let calendar: string

const bodyBytes = (body: BodySpec | undefined): Buffer | undefined => {
  if (body === undefined || body === null) return undefined
  if ('json' in body) return Buffer.from(JSON.stringify(body.json) ?? 'undefined')
  if ('raw' in body) return Buffer.from(body.raw)
  if ('buffer' in body) return body.buffer
  return Buffer.from(body.bytes)
}

async function exchange(req: RawRequest): Promise<RawResponse> {
  const res = await send(host.url, req, FUZZ.requestTimeoutMs)
  const nonce = res.headers['dpop-nonce']
  if (typeof nonce === 'string') dpopState.nonce = nonce
  return res
}

/** A request to `nsid`, fully described: what the properties below generate. */
interface CallSpec {
  nsid: string
  httpMethod: string
  /** Parameters to encode, or a query string written by hand. */
  query: [string, string][] | { raw: string }
  body?: BodySpec
  contentType: string | null
  contentEncoding?: string | null
  extraHeaders?: Record<string, string>
  auth: AuthSpec | { kind: 'service'; person: Person | 'writer'; scheme?: string } | { kind: 'credential'; token: string; scheme?: string }
  dpop: DpopSpec
}

const personOf = (p: Person | 'writer') => (p === 'writer' ? host.writer : host.people[p])

async function call(spec: CallSpec): Promise<{ res: RawResponse; httpMethod: string }> {
  const path = `/xrpc/${spec.nsid}`
  const query = Array.isArray(spec.query) ? (spec.query.length ? `?${new URLSearchParams(spec.query)}` : '') : spec.query.raw
  const build = async (): Promise<RawRequest> => {
    const headers: Record<string, string | string[]> = { ...spec.extraHeaders }
    if (spec.contentType !== null) headers['content-type'] = spec.contentType
    if (spec.contentEncoding) headers['content-encoding'] = spec.contentEncoding
    let accessToken: string | undefined
    if (spec.auth.kind === 'service') {
      headers.authorization = (spec.auth.scheme ?? 'Bearer ') + (await host.serviceAuth(personOf(spec.auth.person), spec.nsid))
    } else if (spec.auth.kind === 'credential') {
      accessToken = spec.auth.token
      headers.authorization = (spec.auth.scheme ?? 'DPoP ') + spec.auth.token
    } else {
      const value = await materializeAuth(spec.auth, host.people)
      if (value !== undefined) headers.authorization = value
    }
    const proof = await materializeProof(spec.dpop, {
      key: proofKey,
      otherKey: otherProofKey,
      htm: spec.httpMethod,
      htu: `${host.url}${path}`,
      nonce: dpopState.nonce,
      accessToken,
    })
    if (proof !== undefined) headers.dpop = proof
    return { method: spec.httpMethod, path: path + query, headers, body: bodyBytes(spec.body) }
  }
  const t0 = performance.now()
  const req = await build()
  const t1 = performance.now()
  let res = await exchangeOrClosed(req)
  // As a client does (spec section 5.6): a nonce challenge is answered once, with the nonce.
  if (res.status === 401 && res.headers['dpop-nonce'] && spec.dpop.kind === 'proof' && spec.dpop.nonce.use === 'right') {
    res = await exchangeOrClosed(await build())
  }
  if (process.env.CONVENE_FUZZ_DEBUG) console.log(`timing build ${(t1 - t0).toFixed(1)} send ${(performance.now() - t1).toFixed(1)} ${spec.nsid} ${res.status}`)
  return { res, httpMethod: spec.httpMethod }
}

/** Past Node's limits (16 KiB of request head) and the host's (256 KiB of JSON). */
const HEAD_LIMIT = 16 * 1024
const BODY_LIMIT = 256 * 1024
const oversized = (req: RawRequest) => {
  let head = req.path.length + 64
  for (const [k, v] of Object.entries(req.headers)) head += k.length + (Array.isArray(v) ? v.join('').length : v.length) + 4
  return head > HEAD_LIMIT - 1024 || (req.body?.length ?? 0) > BODY_LIMIT
}

/**
 * A request past the size limits may be cut off while it is still being sent (Node
 * answers 431 or the host 413, then closes): a reset connection is then an answer, given
 * as status 0. For any other request, a reset is a failure like a 5xx. `bodyLimit`: the
 * route's own, where it is smaller than XRPC's.
 */
async function exchangeOrClosed(req: RawRequest, bodyLimit = BODY_LIMIT): Promise<RawResponse> {
  try {
    return await exchange(req)
  } catch (err) {
    const code = (err as { code?: string }).code
    if ((oversized(req) || (req.body?.length ?? 0) > bodyLimit) && (code === 'ECONNRESET' || code === 'EPIPE')) return { status: 0, headers: {}, text: '' }
    throw err
  }
}

// ---------------------------------------------------------------------------------
// The group sign-in: the PAR endpoint and the form where a person types their handle

const PAR_PATH = '/oauth/par'
const SIGN_IN_PATH = '/oauth/authorize/sign-in'
/** The form routes' body limits (16 kB for PAR, 8 kB for the pages): past the smaller, a reset is an answer. */
const FORM_BODY_LIMIT = 8 * 1024

/** A pushed authorization request: method, body, content type and DPoP proof. */
interface ParSpec {
  httpMethod: string
  body: FormBodySpec
  contentType: string | null
  dpop: DpopSpec
}

async function pushAuthorization(spec: ParSpec): Promise<Answer> {
  const build = async (): Promise<RawRequest> => {
    const headers: Record<string, string | string[]> = {}
    if (spec.contentType !== null) headers['content-type'] = spec.contentType
    const proof = await materializeProof(spec.dpop, { key: proofKey, otherKey: otherProofKey, htm: spec.httpMethod, htu: `${host.url}${PAR_PATH}`, nonce: dpopState.nonce })
    if (proof !== undefined) headers.dpop = proof
    return { method: spec.httpMethod, path: PAR_PATH, headers, body: formBodyBytes(spec.body) }
  }
  let res = await exchangeOrClosed(await build(), FORM_BODY_LIMIT)
  // An authorization server's nonce challenge is a 400 use_dpop_nonce (RFC 9449 section 8), answered once.
  if (res.status === 400 && res.headers['dpop-nonce'] && spec.dpop.kind === 'proof' && spec.dpop.nonce.use === 'right') {
    res = await exchangeOrClosed(await build(), FORM_BODY_LIMIT)
  }
  return { res, httpMethod: spec.httpMethod, shape: 'oauth' }
}

/** A sign-in in progress as a browser holds it: the request, its form token, the device cookie. */
interface SignIn {
  requestUri: string
  csrf: string
  cookie: string
  startedAt: number
}

/** Pushes a sound request for the open group and opens its page, as the app and browser do. */
async function startSignIn(): Promise<SignIn> {
  const open = host.groups.find((g) => g.name === 'open')!
  const form: [string, string][] = [
    ['client_id', FUZZ_CLIENT_ID],
    ['response_type', 'code'],
    ['redirect_uri', FUZZ_REDIRECT_URI],
    ['scope', 'atproto'],
    ['code_challenge', 'x'.repeat(43)],
    ['code_challenge_method', 'S256'],
    ['login_hint', open.handle],
  ]
  const { res } = await pushAuthorization({ httpMethod: 'POST', body: { form }, contentType: 'application/x-www-form-urlencoded', dpop: GOOD_PROOF })
  expect(res.status, res.text).toBe(201)
  const requestUri = (JSON.parse(res.text) as { request_uri: string }).request_uri
  const page = await exchange({ method: 'GET', path: `/oauth/authorize?${new URLSearchParams({ client_id: FUZZ_CLIENT_ID, request_uri: requestUri })}`, headers: {} })
  expect(page.status, page.text).toBe(200)
  const cookie = String(page.headers['set-cookie']?.[0]).split(';')[0]!
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1]!
  return { requestUri, csrf, cookie, startedAt: Date.now() }
}

/** Stands for the sign-in's own value (its request_uri or form token) in a generated form. */
const RIGHT = '\u0000right'

/** What is posted to the sign-in form: the fields, the cookie, and how it travels. */
interface SignInSpec {
  httpMethod: string
  fields: Record<string, FieldSpec>
  extra: [string, string][]
  json: boolean
  contentType: string | null
  cookie: 'right' | 'absent' | 'other' | 'garbage'
}

async function postSignIn(spec: SignInSpec, signIn: SignIn): Promise<Answer> {
  const entries: [string, string][] = []
  for (const [name, f] of Object.entries(spec.fields)) {
    const right = name === 'request_uri' ? signIn.requestUri : name === 'csrf' ? signIn.csrf : ''
    const value = (v: string) => (v === RIGHT ? right : v)
    if (f.kind === 'one') entries.push([name, value(f.value)])
    if (f.kind === 'twice') entries.push([name, value(f.values[0])], [name, value(f.values[1])])
  }
  entries.push(...spec.extra)
  const body = spec.json ? Buffer.from(JSON.stringify(Object.fromEntries(entries))) : Buffer.from(new URLSearchParams(entries).toString())
  const headers: Record<string, string> = {}
  if (spec.contentType !== null) headers['content-type'] = spec.contentType
  const cookies = { right: signIn.cookie, absent: undefined, other: `group-signin-device=${'A'.repeat(43)}`, garbage: 'group-signin-device=; group-signin-device=%%%' }
  if (cookies[spec.cookie]) headers.cookie = cookies[spec.cookie]!
  const res = await exchangeOrClosed({ method: spec.httpMethod, path: SIGN_IN_PATH, headers, body }, FORM_BODY_LIMIT)
  return { res, httpMethod: spec.httpMethod, shape: 'page' }
}

const arbContext = (mutatePercent: number, w = world): ArbContext => ({ docs, world: w, recordTypes, mutatePercent })

/** Query and body for one method, from its lexicon. */
const inputsArb = (m: LexMethod, ctx: ArbContext) =>
  fc.record({
    query: paramsArb(m, ctx),
    body: m.kind === 'procedure' ? bodyArb(m, ctx).map((json): BodySpec => (json === undefined ? null : { json })) : fc.constant(undefined),
  })

/**
 * One arbitrary per method, built once (building them inside `chain` would rebuild a
 * method's whole schema tree for every case, which costs more than the request).
 */
const perMethod = <T>(ms: LexMethod[], build: (m: LexMethod) => fc.Arbitrary<T>): fc.Arbitrary<T> => fc.oneof(...ms.map(build))

const rightMethod = (m: LexMethod) => (m.kind === 'query' ? 'GET' : 'POST')

beforeAll(async () => {
  host = await startFuzzHost()
  proofKey = await createProofKey()
  otherProofKey = await createProofKey()
  const groupDids = host.groups.map((g) => g.did)
  const spaces = groupDids.flatMap((g) => [`at://${g}/space/members/self`, `at://${g}/space/meta/self`, `at://${g}/space/community.lexicon.calendar/self`])
  world = {
    groupDids,
    personDids: PEOPLE.map((p) => host.people[p].did),
    otherDids: [host.serviceDid, host.writesGroup],
    handles: host.groups.map((g) => g.handle),
    spaces,
    roles: ['owner', 'admin', 'moderator', 'member', 'nobody', ''],
  }
  // A calendar space in the open group (so space routes find one) and one in the
  // writes group, where the writer gets group credentials.
  calendar = `at://${host.writesGroup}/space/community.lexicon.calendar/self`
  const space = (group: string, person: Person | 'writer') =>
    call({
      nsid: 'example.groups.createSpace',
      httpMethod: 'POST',
      query: [],
      contentType: 'application/json',
      auth: { kind: 'service', person },
      dpop: { kind: 'absent' },
      body: {
        json: {
          group,
          type: 'community.lexicon.calendar',
          skey: 'self',
          name: 'Calendar',
          readableBy: ['owner', 'admin', 'member'],
          credentialScopes: [
            { role: 'owner', scopes: ['*'] },
            { role: 'admin', scopes: ['community.lexicon.calendar.event', 'example.groups.eventImage'] },
          ],
        },
      },
    })
  for (const [group, person] of [
    [host.groups.find((g) => g.name === 'open')!.did, 'owner'],
    [host.writesGroup, 'writer'],
  ] as const) {
    const { res } = await space(group, person)
    expect(res.status, res.text).toBe(200)
  }
})

afterAll(async () => {
  await host?.stop()
})

/** Ask for a group credential in the writes group's calendar, as its owner. */
async function groupCredential(): Promise<string> {
  const { res } = await call({
    nsid: GROUP_AUTH,
    httpMethod: 'POST',
    query: [],
    contentType: 'application/json',
    auth: { kind: 'service', person: 'writer' },
    dpop: GOOD_PROOF,
    body: { json: { group: host.writesGroup, space: calendar } },
  })
  expect(res.status, res.text).toBe(200)
  return (JSON.parse(res.text) as { accessJwt: string }).accessJwt
}

/** Gives a generated group write's record the `$type` of its collection. */
function alignRecordType<T extends { body?: BodySpec }>(inputs: T): T {
  const body = inputs.body
  if (!body || !('json' in body) || typeof body.json !== 'object' || body.json === null) return inputs
  const json = body.json as Record<string, unknown>
  const record = json.record
  if (typeof json.collection !== 'string' || typeof record !== 'object' || record === null || Array.isArray(record)) return inputs
  return { ...inputs, body: { json: { ...json, record: { ...record, $type: json.collection } } } }
}

/** The host still serves: its health answer and a real authenticated call. */
async function expectAlive() {
  expect(host.exitCode(), host.logTail()).toBeNull()
  const health = await exchange({ method: 'GET', path: '/xrpc/_health', headers: {} })
  expect(health.status).toBe(200)
  expect(JSON.parse(health.text)).toMatchObject({ did: host.serviceDid, aud: host.aud })
  const open = host.groups.find((g) => g.name === 'open')!.did
  const { res } = await call({
    nsid: 'example.groups.getGroup',
    httpMethod: 'GET',
    query: [['group', open]],
    contentType: null,
    auth: { kind: 'service', person: 'owner' },
    dpop: { kind: 'absent' },
  })
  expect(res.status, res.text).toBe(200)
  expect(JSON.parse(res.text)).toMatchObject({ did: open })
}

// Shares of CONVENE_FUZZ_RUNS; with the default 3,000: 540/450/150 bursts (of 2 to 8 requests)/480/90/375/435/150/150/60/120.
const RUNS = {
  garbageAuth: runsFor(0.18),
  authenticated: runsFor(0.15),
  bursts: runsFor(0.05),
  envelopes: runsFor(0.16),
  paths: runsFor(0.03),
  dpop: runsFor(0.125),
  groupWrites: runsFor(0.145),
  par: runsFor(0.05),
  signIn: runsFor(0.05),
  streams: runsFor(0.02),
  images: runsFor(0.04),
}

describe('fuzzing the group host: no input of any shape gets a 5xx', () => {
  it('sees every lexicon method', () => {
    // A lexicon added without being fuzzed would be a hole: the list comes from lexicons/.
    expect(methods.map((m) => m.nsid)).toEqual(expect.arrayContaining([...GROUP_WRITES, GROUP_AUTH, 'example.groups.createGroup', 'com.atproto.identity.resolveHandle']))
    expect(methods.length).toBeGreaterThanOrEqual(31)
  })

  it('sees every subscription', () => {
    expect(subscriptions.map((m) => m.nsid).sort()).toEqual(['com.atproto.sync.subscribeRepos', 'example.groups.subscribeChanges'])
  })

  it(
    'WebSocket upgrades to the subscriptions with fuzzed parameters, garbage auth and broken handshakes',
    async () => {
      const arb = perMethod(subscriptions, (m) =>
        fc.record({
          nsid: fc.constant(m.nsid),
          query: fc.oneof({ weight: 4, arbitrary: paramsArb(m, arbContext(10)) }, { weight: 1, arbitrary: rawQueryArb.map((raw) => ({ raw })) }),
          auth: fc.oneof(
            { weight: 3, arbitrary: fc.constantFrom(...PEOPLE).map((person): CallSpec['auth'] => ({ kind: 'service', person })) },
            { weight: 2, arbitrary: garbageAuthArb(host, [m.nsid, m.nsid, 'example.groups.listChanges']) },
          ),
          handshake: fc.oneof(
            { weight: 8, arbitrary: fc.constant<Handshake>('sound') },
            { weight: 1, arbitrary: fc.constantFrom<Handshake>('no key', 'old version', 'not websocket') },
          ),
        }),
      )
      await fuzzProperty(
        host,
        arb,
        async ({ nsid, query, auth, handshake }): Promise<Answer> => {
          const headers: Record<string, string> = {}
          if (auth.kind === 'service') headers.authorization = `Bearer ${await host.serviceAuth(personOf(auth.person), nsid)}`
          else if (auth.kind !== 'credential') {
            const value = await materializeAuth(auth, host.people)
            if (value !== undefined) headers.authorization = value
          }
          const search = Array.isArray(query) ? (query.length ? `?${new URLSearchParams(query)}` : '') : query.raw
          const path = `/xrpc/${nsid}${search}`
          try {
            return { res: await upgrade(host.url, { path, headers, handshake }, FUZZ.requestTimeoutMs), httpMethod: 'GET' }
          } catch (err) {
            // As in exchangeOrClosed: Node may cut off a request past its header limit while it is still sent.
            const code = (err as { code?: string }).code
            if (oversized({ method: 'GET', path, headers }) && (code === 'ECONNRESET' || code === 'EPIPE')) return { res: { status: 0, headers: {}, text: '' }, httpMethod: 'GET' }
            throw err
          }
        },
        RUNS.streams,
      )
      await expectAlive()
    },
    testTimeoutFor(RUNS.streams),
  )

  it(
    'garbage service auth and DPoP proofs on every method',
    async () => {
      const arb = perMethod(methods, (m) =>
        fc.record({
          nsid: fc.constant(m.nsid),
          httpMethod: httpMethodArb(rightMethod(m)),
          query: inputsArb(m, arbContext(10)).map((i) => i.query),
          body: inputsArb(m, arbContext(10)).map((i) => i.body),
          contentType: fc.constant(m.kind === 'procedure' ? 'application/json' : null),
          auth: garbageAuthArb(host, [m.nsid, m.nsid, GROUP_AUTH]),
          dpop: fc.oneof({ weight: 3, arbitrary: fc.constant<DpopSpec>({ kind: 'absent' }) }, { weight: 1, arbitrary: proofSpecArb }),
        }),
      )
      await fuzzProperty(host, arb, call, RUNS.garbageAuth)
      await expectAlive()
    },
    testTimeoutFor(RUNS.garbageAuth),
  )

  it(
    'authenticated calls with fuzzed inputs from the lexicons',
    async () => {
      // Group writes take a group credential instead: fuzzed below with one.
      const arb = perMethod(methods.filter((m) => !GROUP_WRITES.includes(m.nsid)), (m) =>
        fc.record({
          nsid: fc.constant(m.nsid),
          httpMethod: fc.constant(rightMethod(m)),
          inputs: inputsArb(m, arbContext(3)),
          contentType: fc.constant(m.kind === 'procedure' ? 'application/json' : null),
          auth: fc.constantFrom(...PEOPLE).map((person) => ({ kind: 'service' as const, person })),
          dpop: m.nsid === GROUP_AUTH ? fc.oneof({ weight: 3, arbitrary: fc.constant<DpopSpec>(GOOD_PROOF) }, { weight: 1, arbitrary: proofSpecArb }) : fc.constant<DpopSpec>({ kind: 'absent' }),
        }),
      )
      await fuzzProperty(host, arb, ({ inputs, ...spec }) => call({ ...spec, ...inputs }), RUNS.authenticated)
      await expectAlive()
    },
    testTimeoutFor(RUNS.authenticated),
  )

  it(
    'bursts of concurrent authenticated calls (races between checks and writes)',
    async () => {
      const one = perMethod(methods.filter((m) => !GROUP_WRITES.includes(m.nsid) && m.nsid !== GROUP_AUTH), (m) =>
        fc.record({
          nsid: fc.constant(m.nsid),
          httpMethod: fc.constant(rightMethod(m)),
          inputs: inputsArb(m, arbContext(2)),
          contentType: fc.constant(m.kind === 'procedure' ? 'application/json' : null),
          auth: fc.constantFrom(...PEOPLE).map((person) => ({ kind: 'service' as const, person })),
          dpop: fc.constant<DpopSpec>({ kind: 'absent' }),
        }),
      )
      // The same call several times at once, or different ones: both race.
      const burst = fc.oneof(
        fc.tuple(one, fc.integer({ min: 2, max: 8 })).map(([spec, n]) => Array.from({ length: n }, () => spec)),
        fc.array(one, { minLength: 2, maxLength: 8 }),
      )
      await fuzzProperty(host, burst, (specs) => Promise.all(specs.map(({ inputs, ...spec }) => call({ ...spec, ...inputs }))), RUNS.bursts)
      await expectAlive()
    },
    testTimeoutFor(RUNS.bursts * 5),
  )

  it(
    'malformed bodies, content types, encodings, query strings and HTTP methods',
    async () => {
      const arb = perMethod(methods, (m) =>
        fc.record({
          nsid: fc.constant(m.nsid),
          httpMethod: httpMethodArb(rightMethod(m)),
          query: fc.oneof(inputsArb(m, arbContext(10)).map((i) => i.query), rawQueryArb.map((raw) => ({ raw }))),
          body: fc.oneof(inputsArb(m, arbContext(10)).map((i) => i.body), malformedBodyArb),
          contentType: contentTypeArb,
          contentEncoding: contentEncodingArb,
          extraHeaders: extraHeadersArb,
          auth: fc.constantFrom(...PEOPLE).map((person) => ({ kind: 'service' as const, person })),
          dpop: fc.constant<DpopSpec>({ kind: 'absent' }),
        }),
      )
      await fuzzProperty(host, arb, call, RUNS.envelopes)
      await expectAlive()
    },
    testTimeoutFor(RUNS.envelopes),
  )

  it(
    'paths the host does not serve, and its own with junk appended',
    async () => {
      const known = new Set(methods.map((m) => m.nsid))
      const arb = fc.record({ path: pathArb([...known]), httpMethod: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'HEAD'), auth: fc.constantFrom(...PEOPLE) })
      await fuzzProperty(
        host,
        arb,
        async ({ path, httpMethod, auth }): Promise<Answer> => {
          const nsid = /^\/xrpc\/([^/?#]*)$/.exec(path)?.[1] ?? ''
          const token = await host.serviceAuth(host.people[auth], nsid)
          const req: RawRequest = { method: httpMethod, path, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: httpMethod === 'POST' ? Buffer.from('{}') : undefined }
          // XRPC answers 501 MethodNotImplemented for a method it does not have: by design,
          // and the one 5xx allowed, for a path naming no lexicon method.
          return { res: await exchangeOrClosed(req), httpMethod, unknownMethod: !known.has(nsid) }
        },
        RUNS.paths,
      )
      await expectAlive()
    },
    testTimeoutFor(RUNS.paths),
  )

  it(
    'garbage DPoP proofs and credentials on getGroupAuth and the group-write routes',
    async () => {
      const token = await groupCredential()
      const writes = methods.filter((m) => GROUP_WRITES.includes(m.nsid))
      const writesWorld: FuzzWorld = { ...world, groupDids: [host.writesGroup], spaces: [calendar] }
      const getGroupAuth = fc.record({
        nsid: fc.constant(GROUP_AUTH),
        httpMethod: fc.constant('POST'),
        query: fc.constant([] as [string, string][]),
        body: fc.constant<BodySpec>({ json: { group: host.writesGroup, space: calendar } }),
        contentType: fc.constant('application/json'),
        auth: fc.constantFrom<CallSpec['auth']>({ kind: 'service', person: 'writer' }, { kind: 'service', person: 'writer', scheme: 'DPoP ' }),
        dpop: proofSpecArb,
      })
      const groupWrite = perMethod(writes, (m) =>
        fc.record({
          nsid: fc.constant(m.nsid),
          httpMethod: fc.constant('POST'),
          query: fc.constant([] as [string, string][]),
          body: inputsArb(m, arbContext(5, writesWorld)).map((i) => i.body),
          contentType: fc.constant('application/json'),
          auth: fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom<CallSpec['auth']>({ kind: 'credential', token }, { kind: 'credential', token, scheme: 'Bearer ' }) },
            { weight: 1, arbitrary: fc.constantFrom(...[`${token}x`, token.split('.').slice(0, 2).join('.') + '.AAAA', token.replace(/^[^.]+/, 'eyJhbGciOiJub25lIn0')]).map((t): CallSpec['auth'] => ({ kind: 'credential', token: t })) },
            { weight: 1, arbitrary: garbageAuthArb(host, [m.nsid]) },
          ),
          dpop: proofSpecArb,
        }),
      )
      await fuzzProperty(host, fc.oneof(getGroupAuth, groupWrite), call, RUNS.dpop)
      await expectAlive()
    },
    testTimeoutFor(RUNS.dpop),
  )

  it(
    'group writes with a sound credential and proof, carrying fuzzed records',
    async () => {
      let token = await groupCredential()
      let mintedAt = Date.now()
      const writes = methods.filter((m) => GROUP_WRITES.includes(m.nsid))
      const writesWorld: FuzzWorld = { ...world, groupDids: [host.writesGroup], personDids: [host.writesGroup], spaces: [calendar] }
      const arb = perMethod(writes, (m) =>
        fc.record({
          nsid: fc.constant(m.nsid),
          inputs: inputsArb(m, arbContext(3, writesWorld)),
          // Mostly a record whose $type is its collection, as the host requires, so
          // the record itself is what gets checked.
          align: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
        }).map(({ nsid, inputs, align }) => ({ nsid, inputs: align ? alignRecordType(inputs) : inputs })),
      )
      await fuzzProperty(
        host,
        arb,
        async ({ nsid, inputs }) => {
          // Credentials last 15 minutes; a long `npm run fuzz` outlives one.
          if (Date.now() - mintedAt > 10 * 60_000) {
            token = await groupCredential()
            mintedAt = Date.now()
          }
          return call({ nsid, httpMethod: 'POST', ...inputs, contentType: 'application/json', auth: { kind: 'credential', token }, dpop: GOOD_PROOF })
        },
        RUNS.groupWrites,
      )
      await expectAlive()
    },
    testTimeoutFor(RUNS.groupWrites),
  )

  it(
    'image uploads of any bytes, declared type and encoding: stored as what the bytes are, or refused',
    async () => {
      let token = await groupCredential()
      let mintedAt = Date.now()
      const SPACE_UPLOAD = 'example.groups.uploadSpaceBlob'
      const arb = fc.record({
        nsid: fc.constantFrom(SPACE_UPLOAD, 'com.atproto.repo.uploadBlob'),
        upload: imageBodyArb,
        contentType: imageContentTypeArb,
        space: fc.oneof(
          { weight: 6, arbitrary: fc.constant<string | null>(calendar) },
          { weight: 1, arbitrary: fc.constantFrom<string | null>(...world.spaces, null, '', 'at://', `${calendar}/..`) },
          { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
        ),
        auth: fc.oneof(
          { weight: 6, arbitrary: fc.constant<'credential'>('credential') },
          { weight: 1, arbitrary: garbageAuthArb(host, [SPACE_UPLOAD, 'com.atproto.repo.uploadBlob']) },
        ),
        dpop: fc.oneof({ weight: 6, arbitrary: fc.constant<DpopSpec>(GOOD_PROOF) }, { weight: 1, arbitrary: proofSpecArb }),
      })
      await fuzzProperty(
        host,
        arb,
        async ({ nsid, upload, contentType, space, auth, dpop }) => {
          if (Date.now() - mintedAt > 10 * 60_000) {
            token = await groupCredential()
            mintedAt = Date.now()
          }
          const { bytes, contentEncoding } = encodedImageBody(upload)
          const answer = await call({
            nsid,
            httpMethod: 'POST',
            query: nsid === SPACE_UPLOAD && space !== null ? [['space', space]] : [],
            body: { buffer: bytes },
            contentType,
            contentEncoding,
            auth: auth === 'credential' ? { kind: 'credential', token } : auth,
            dpop,
          })
          if (answer.res.status === 200) {
            // Kept as what its bytes are, whatever the sender said they were.
            const raw = imageBytes(upload.body)
            const { blob } = JSON.parse(answer.res.text) as { blob: { mimeType: string; size: number } }
            expect(imageTypeOf(raw), `${nsid} took bytes that are no image`).not.toBeNull()
            expect(blob).toMatchObject({ mimeType: imageTypeOf(raw), size: raw.length })
          }
          return answer
        },
        RUNS.images,
      )
      await expectAlive()
    },
    testTimeoutFor(RUNS.images),
  )

  it(
    'hostile pushed authorization requests: OAuth refusals, never a 5xx',
    async () => {
      const groups = host.groups.map((g) => ({ did: g.did, handle: g.handle }))
      const arb = formBodyArb(parFieldsArb(groups)).chain((body) =>
        fc.record({
          httpMethod: fc.oneof({ weight: 12, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'OPTIONS') }),
          body: fc.constant(body),
          contentType: formContentTypeArb(body),
          dpop: fc.oneof({ weight: 3, arbitrary: fc.constant<DpopSpec>(GOOD_PROOF) }, { weight: 1, arbitrary: proofSpecArb }),
        }),
      )
      await fuzzProperty(host, arb, pushAuthorization, RUNS.par)
      await expectAlive()
    },
    testTimeoutFor(RUNS.par),
  )

  it(
    'hostile sign-in forms (handles, DIDs, tokens, cookies): a page saying why, never a 5xx or a call out',
    async () => {
      let signIn = await startSignIn()
      // Typed did:webs name its port: nothing may connect to it.
      const tripwire = await startTripwire()
      const handle = typedHandleArb({ tripwirePort: tripwire.port, groupDids: host.groups.map((g) => g.did), personDids: PEOPLE.map((p) => host.people[p].did) })
      const token = (wrong: string[]): fc.Arbitrary<FieldSpec> =>
        fc.oneof(
          { weight: 8, arbitrary: fc.constant<FieldSpec>({ kind: 'one', value: RIGHT }) },
          { weight: 1, arbitrary: fc.constant<FieldSpec>({ kind: 'absent' }) },
          { weight: 1, arbitrary: fc.constantFrom(...wrong).map((value): FieldSpec => ({ kind: 'one', value })) },
          { weight: 1, arbitrary: fc.constant<FieldSpec>({ kind: 'twice', values: [RIGHT, RIGHT] }) },
        )
      const arb = fc.record({
        httpMethod: fc.oneof({ weight: 12, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT') }),
        fields: fc.record({
          request_uri: token(['urn:ietf:params:oauth:request_uri:nope', 'urn:ietf:params:oauth:request_uri:', '', 'x'.repeat(3000)]),
          csrf: token(['forged', '', 'A'.repeat(43)]),
          handle: fc.oneof(
            { weight: 8, arbitrary: handle.map((value): FieldSpec => ({ kind: 'one', value })) },
            { weight: 1, arbitrary: fc.constant<FieldSpec>({ kind: 'absent' }) },
            { weight: 1, arbitrary: fc.tuple(handle, handle).map(([a, b]): FieldSpec => ({ kind: 'twice', values: [a, b] })) },
          ),
        }),
        extra: extraFieldsArb,
        json: fc.oneof({ weight: 12, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
        contentType: fc.oneof(
          { weight: 12, arbitrary: fc.constant<string | null>('application/x-www-form-urlencoded') },
          { weight: 1, arbitrary: fc.constantFrom<string | null>(null, 'application/json', 'text/plain', 'multipart/form-data; boundary=x') },
        ),
        cookie: cookieChoiceArb,
      })
      await fuzzProperty(
        host,
        arb,
        async (spec) => {
          // A pending request lives 10 minutes; a long `npm run fuzz` outlives one.
          if (Date.now() - signIn.startedAt > 5 * 60_000) signIn = await startSignIn()
          return postSignIn(spec, signIn)
        },
        RUNS.signIn,
      ).finally(() => tripwire.close())
      expect(tripwire.connections, 'connections to a loopback port named by typed did:webs').toBe(0)
      await expectAlive()
    },
    testTimeoutFor(RUNS.signIn),
  )
})
