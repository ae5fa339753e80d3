import fs from 'node:fs'
import path from 'node:path'
import { createHash, randomBytes } from 'node:crypto'
import SqliteDatabase from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { closeSharedBrowser } from '../../support/browser-sign-in.js'
import { completeGroupSignIn } from '../../support/group-sign-in.js'
import { createDpopKey, dpopProof, type DpopKey } from '../../support/dpop.js'
import { openLoopbackRedirect } from '../../../src/main/core/accounts/loopback-redirect.js'
import { startClientDocumentServer } from '../../support/client-document-server.js'
import { groupSessionScope } from '../../../src/shared/group-scope.js'
import { ATPROTO_NETWORK_SCOPE } from '../../../src/shared/scopes.js'

/**
 * The group sign-in's endpoints against hostile or careless callers (issue 14): each
 * refusal a clear OAuth error (RFC 6749, 9126, 9449 names), never a 500; and the
 * metadata documents atproto clients rely on.
 */
const net = useLocalNetwork()
afterAll(closeSharedBrowser)

const EVENT = 'community.lexicon.calendar.event'
const group = () => net.group('open')
const origin = () => new URL(net.stack.host.url).origin
const at = (p: string) => new URL(p, net.stack.host.url).href
const calendar = () => `at://${group().did}/space/community.lexicon.calendar/self`
const scope = () => `atproto space:community.lexicon.calendar?authority=${group().did}&skey=self&collection=${EVENT}`
const clientId = () => `http://localhost?redirect_uri=${encodeURIComponent('http://127.0.0.1/callback')}&scope=${encodeURIComponent(scope())}`

beforeAll(async () => {
  const res = await net.as('owner').call('example.groups.createSpace', {
    body: {
      group: group().did,
      type: 'community.lexicon.calendar',
      skey: 'self',
      name: 'Calendar',
      readableBy: ['owner', 'admin'],
      credentialScopes: [{ role: 'admin', scopes: [EVENT] }],
    },
  })
  expect(res.status).toBe(200)
})

interface Answer {
  status: number
  body: Record<string, unknown>
  headers: Headers
}

/**
 * A form POST to an authorization-server endpoint with a DPoP proof by `key`, retrying
 * once on `use_dpop_nonce` (RFC 9449 section 8) and keeping the nonce in `state`.
 */
async function post(endpoint: string, form: Record<string, string>, key: DpopKey | undefined, state: { nonce?: string } = {}): Promise<Answer> {
  const send = async (): Promise<Answer> => {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' }
    if (key) headers.dpop = await dpopProof(key, { htm: 'POST', htu: at(endpoint), nonce: state.nonce })
    const res = await fetch(at(endpoint), { method: 'POST', headers, body: new URLSearchParams(form).toString() })
    if (res.headers.get('dpop-nonce')) state.nonce = res.headers.get('dpop-nonce')!
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers }
  }
  const first = await send()
  return first.status === 400 && first.body.error === 'use_dpop_nonce' ? send() : first
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

function parForm(overrides: Record<string, string | undefined> = {}, port = 1234) {
  const form: Record<string, string | undefined> = {
    client_id: clientId(),
    response_type: 'code',
    redirect_uri: `http://127.0.0.1:${port}/callback`,
    scope: scope(),
    state: 'app-state',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    login_hint: group().handle,
    ...overrides,
  }
  return Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => e[1] !== undefined))
}

/** A full sign-in by the admin, answered to our own loopback listener: the code, the key and the verifier. */
async function authorizationCode(client = clientId(), asked = scope()) {
  const key = await createDpopKey()
  const state: { nonce?: string } = {}
  const redirect = await openLoopbackRedirect()
  try {
    const { verifier, challenge } = pkce()
    const par = await post('/oauth/par', parForm({ client_id: client, scope: asked, code_challenge: challenge }, redirect.port), key, state)
    expect(par.status, JSON.stringify(par.body)).toBe(201)
    const url = `${at('/oauth/authorize')}?${new URLSearchParams({ client_id: client, request_uri: par.body.request_uri as string })}`
    const admin = net.as('admin').account
    const result = await completeGroupSignIn(url, { handle: admin.handle, password: admin.password })
    expect(result.redirect).toBeDefined()
    const params = await redirect.params
    return { client, key, state, verifier, code: params.get('code')!, redirectUri: `http://127.0.0.1:${redirect.port}/callback` }
  } finally {
    redirect.close()
  }
}

/** The token endpoint's first answer for a finished sign-in. */
async function exchange(flow: Awaited<ReturnType<typeof authorizationCode>>) {
  const tokens = await post('/oauth/token', { grant_type: 'authorization_code', client_id: flow.client, code: flow.code, redirect_uri: flow.redirectUri, code_verifier: flow.verifier }, flow.key, flow.state)
  expect(tokens.status, JSON.stringify(tokens.body)).toBe(200)
  return tokens.body
}

/** A write into the calendar as the group with a session's access token (retried once on a new nonce): its status. */
async function writeWith(flow: { key: DpopKey; state: { nonce?: string } }, accessToken: string, retry = true): Promise<number> {
  const proof = await dpopProof(flow.key, { htm: 'POST', htu: at('/xrpc/com.atproto.space.createRecord'), nonce: flow.state.nonce, accessToken })
  const res = await fetch(at('/xrpc/com.atproto.space.createRecord'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `DPoP ${accessToken}`, dpop: proof },
    body: JSON.stringify({ space: calendar(), repo: group().did, collection: EVENT, record: { $type: EVENT, name: 'x', startsAt: '2026-07-01T12:00:00.000Z', createdAt: new Date().toISOString() } }),
  })
  if (res.headers.get('dpop-nonce')) flow.state.nonce = res.headers.get('dpop-nonce')!
  if (retry && res.status === 401 && res.headers.get('www-authenticate')?.includes('use_dpop_nonce')) return writeWith(flow, accessToken, false)
  return res.status
}

describe('metadata documents', () => {
  it('names the host as its own protected resource and authorization server', async () => {
    const res = await fetch(at('/.well-known/oauth-protected-resource'))
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ resource: origin(), authorization_servers: [origin()] })
  })

  it('describes an atproto authorization server: PAR required, S256 only, DPoP, client metadata documents, public clients', async () => {
    const meta = (await (await fetch(at('/.well-known/oauth-authorization-server'))).json()) as Record<string, unknown>
    expect(meta).toMatchObject({
      issuer: origin(),
      authorization_endpoint: at('/oauth/authorize'),
      token_endpoint: at('/oauth/token'),
      pushed_authorization_request_endpoint: at('/oauth/par'),
      revocation_endpoint: at('/oauth/revoke'),
      require_pushed_authorization_requests: true,
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
      token_endpoint_auth_methods_supported: ['none'],
      scopes_supported: ['atproto'],
    })
    expect(meta.dpop_signing_alg_values_supported).toContain('ES256')
  })

  it('serves the metadata of its own client at people’s PDSes, asking only atproto', async () => {
    const doc = (await (await fetch(at('/oauth/client-metadata.json'))).json()) as Record<string, unknown>
    expect(doc).toMatchObject({ scope: 'atproto', dpop_bound_access_tokens: true, token_endpoint_auth_method: 'none' })
    // On the local network (plain http loopback) it is a development client.
    expect(doc.client_id).toMatch(/^http:\/\/localhost\?redirect_uri=/)
  })
})

describe('pushed authorization requests', () => {
  it('takes a development client’s request with a loopback redirect on any port: 201 and a request_uri', async () => {
    const res = await post('/oauth/par', parForm({}, 49152), await createDpopKey())
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body.request_uri).toMatch(/^urn:ietf:params:oauth:request_uri:/)
  })

  it.each([
    ['no client_id', { client_id: undefined }, 400, 'invalid_request'],
    ['an unreachable client metadata document', { client_id: 'https://client.invalid/client-metadata.json' }, 401, 'invalid_client'],
    ['a plain-http client ID', { client_id: 'http://example.com/client.json' }, 401, 'invalid_client'],
    ['a redirect_uri not in the metadata', { redirect_uri: 'https://evil.example/callback' }, 400, 'invalid_request'],
    ['no PKCE', { code_challenge: undefined, code_challenge_method: undefined }, 400, 'invalid_request'],
    ['plain PKCE', { code_challenge_method: 'plain' }, 400, 'invalid_request'],
    ['a scope the client does not declare', { scope: 'atproto repo:app.bsky.feed.post' }, 400, 'invalid_scope'],
    ['a login_hint that is a person, no group here', { login_hint: 'admin-demo.test' }, 400, 'invalid_request'],
    ['no login_hint', { login_hint: undefined }, 400, 'invalid_request'],
    ['a request object', { request: 'eyJhbGciOiJub25lIn0.e30.' }, 400, 'request_not_supported'],
    ['response_type token', { response_type: 'token' }, 400, 'unsupported_response_type'],
  ])('refuses %s', async (_what, overrides, status, error) => {
    const res = await post('/oauth/par', parForm(overrides), await createDpopKey())
    expect(res).toMatchObject({ status, body: { error } })
    expect(typeof res.body.error_description).toBe('string')
  })

  it('refuses a request without a DPoP proof, and a replayed proof', async () => {
    expect(await post('/oauth/par', parForm(), undefined)).toMatchObject({ status: 400, body: { error: 'invalid_dpop_proof' } })
    const key = await createDpopKey()
    const state: { nonce?: string } = {}
    expect((await post('/oauth/par', parForm(), key, state)).status).toBe(201)
    const proof = await dpopProof(key, { htm: 'POST', htu: at('/oauth/par'), nonce: state.nonce })
    const send = () =>
      fetch(at('/oauth/par'), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: proof }, body: new URLSearchParams(parForm()).toString() })
    expect((await send()).status).toBe(201)
    const replay = await send()
    expect(replay.status).toBe(400)
    expect(await replay.json()).toMatchObject({ error: 'invalid_dpop_proof' })
  })

  it('refuses an oversize body with invalid_request, not a 500', async () => {
    const res = await post('/oauth/par', parForm({ state: 'x'.repeat(100_000) }), await createDpopKey())
    expect(res).toMatchObject({ status: 413, body: { error: 'invalid_request' } })
    const long = await post('/oauth/par', parForm({ state: 'x'.repeat(5_000) }), await createDpopKey())
    expect(long).toMatchObject({ status: 400, body: { error: 'invalid_request' } })
  })
})

it('lets browser apps call PAR and read the DPoP nonce (CORS)', async () => {
  const preflight = await fetch(at('/oauth/par'), { method: 'OPTIONS', headers: { origin: 'https://app.example.com', 'access-control-request-headers': 'dpop,content-type' } })
  expect(preflight.status).toBe(204)
  expect(preflight.headers.get('access-control-allow-headers')).toContain('DPoP')
  const res = await fetch(at('/oauth/par'), { method: 'POST', headers: { origin: 'https://app.example.com', 'content-type': 'application/x-www-form-urlencoded' }, body: '' })
  expect(res.headers.get('access-control-allow-origin')).toBe('*')
  expect(res.headers.get('access-control-expose-headers')).toContain('DPoP-Nonce')
})

it('answers odd bodies on PAR, token and revocation with OAuth errors, never a 5xx', async () => {
  const bodies: [string, string][] = [
    ['application/json', '[1,2]'],
    ['application/json', '{"client_id":{"a":1},"grant_type":["x"]}'],
    ['application/json', '{"client_id":'],
    ['application/json', '"just a string"'],
    ['application/x-www-form-urlencoded', 'client_id=a&client_id=b&grant_type=refresh_token&refresh_token=x&refresh_token=y'],
    ['application/x-www-form-urlencoded', '%%%=%%%'],
    ['text/plain', 'client_id=x'],
    ['application/x-www-form-urlencoded', `token=${'t'.repeat(3000)}&grant_type=authorization_code&client_id=${'c'.repeat(3000)}`],
  ]
  for (const path of ['/oauth/par', '/oauth/token', '/oauth/revoke']) {
    for (const [type, body] of bodies) {
      const res = await fetch(at(path), { method: 'POST', headers: { 'content-type': type }, body })
      const text = await res.text()
      expect(res.status, `${path} ${body}: ${text}`).toBeLessThan(500)
      if (res.status >= 400) expect(JSON.parse(text), `${path} ${body}`).toHaveProperty('error')
    }
  }
})

describe('clients that publish a metadata document', () => {
  let docs: Awaited<ReturnType<typeof startClientDocumentServer>>
  beforeAll(async () => {
    docs = await startClientDocumentServer()
  })
  afterAll(() => docs.close())

  /** A native app's document, with a name it gives itself that nothing checks. */
  const nativeApp = (extra: Record<string, unknown> = {}) => ({
    client_name: 'Totally Trustworthy Bank',
    application_type: 'native',
    redirect_uris: ['http://127.0.0.1/callback'],
    scope: scope(),
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    dpop_bound_access_tokens: true,
    ...extra,
  })
  const pageUrl = (client: string, requestUri: string) => `${at('/oauth/authorize')}?${new URLSearchParams({ client_id: client, request_uri: requestUri })}`
  const storedClientMetadata = (requestUri: string) => {
    const db = new SqliteDatabase(path.join(net.running.dataDir, 'host', 'host.sqlite'), { readonly: true })
    try {
      return (db.prepare('SELECT clientMetadata FROM oauth_request WHERE id = ?').get(requestUri.split(':').at(-1)) as { clientMetadata: string }).clientMetadata
    } finally {
      db.close()
    }
  }

  it('takes a valid document, fetched once', async () => {
    const client = docs.publish('/good/client-metadata.json', nativeApp())
    const res = await post('/oauth/par', parForm({ client_id: client }), await createDpopKey())
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(docs.requests('/good/client-metadata.json')).toBe(1)
  })

  it('refuses a document whose client_uri names another origin (it would pass for that app)', async () => {
    const client = docs.publish('/claims-convene/client-metadata.json', nativeApp({ client_name: 'Convene', client_uri: 'https://convene.app' }))
    const res = await post('/oauth/par', parForm({ client_id: client }), await createDpopKey())
    expect(res).toMatchObject({ status: 401, body: { error: 'invalid_client' } })
    expect(res.body.error_description).toContain('client_uri')
  })

  it('refuses a native app’s custom-scheme redirect that is not its own domain reversed', async () => {
    const client = docs.publish('/custom-scheme/client-metadata.json', nativeApp({ redirect_uris: ['app.convene:/callback'] }))
    const res = await post('/oauth/par', parForm({ client_id: client, redirect_uri: 'app.convene:/callback' }), await createDpopKey())
    expect(res).toMatchObject({ status: 401, body: { error: 'invalid_client' } })
    expect(res.body.error_description).toMatch(/custom scheme/)
  })

  it('names the app on the sign-in and consent pages by its client ID’s host, never by its client_name', async () => {
    const client = docs.publish('/named/client-metadata.json', nativeApp())
    const host = new URL(docs.origin).host
    const redirect = await openLoopbackRedirect()
    try {
      const par = await post('/oauth/par', parForm({ client_id: client }, redirect.port), await createDpopKey())
      expect(par.status, JSON.stringify(par.body)).toBe(201)
      const admin = net.as('admin').account
      let signIn = ''
      const result = await completeGroupSignIn(pageUrl(client, par.body.request_uri as string), { handle: admin.handle, password: admin.password }, 'Deny', async (page) => {
        signIn = await page.locator('main').innerText()
      })
      expect(signIn).toContain(`${host} asks to act as the group`)
      expect(signIn).not.toContain('Trustworthy')
      expect(result.consent, result.stoppedAt).toBeDefined()
      expect(result.consent).toContain(`Let ${host} act as`)
      expect(result.consent).toMatch(new RegExp(`App\\s+${host.replace(/\./g, '\\.')}`))
      expect(result.consent).toContain(client)
      expect(result.consent).not.toContain('Trustworthy')
      expect((await redirect.params).get('error')).toBe('access_denied')
    } finally {
      redirect.close()
    }
  })

  it('checks the DPoP proof before fetching the client’s document, and fetches it once for many requests', async () => {
    const document = '/dpop-first/client-metadata.json'
    const client = docs.publish(document, nativeApp())
    // No proof, a broken one, and a first one without the nonce: none costs a fetch.
    expect(await post('/oauth/par', parForm({ client_id: client }), undefined)).toMatchObject({ status: 400, body: { error: 'invalid_dpop_proof' } })
    const broken = await fetch(at('/oauth/par'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: 'eyJhbGciOiJub25lIn0.e30.' },
      body: new URLSearchParams(parForm({ client_id: client })).toString(),
    })
    expect(broken.status).toBe(400)
    const key = await createDpopKey()
    const nonceless = await fetch(at('/oauth/par'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: await dpopProof(key, { htm: 'POST', htu: at('/oauth/par') }) },
      body: new URLSearchParams(parForm({ client_id: client })).toString(),
    })
    expect(await nonceless.json()).toMatchObject({ error: 'use_dpop_nonce' })
    expect(docs.requests(document)).toBe(0)

    const state: { nonce?: string } = { nonce: nonceless.headers.get('dpop-nonce')! }
    for (let i = 0; i < 5; i++) expect((await post('/oauth/par', parForm({ client_id: client }), key, state)).status).toBe(201)
    expect(docs.requests(document)).toBe(1)
  })

  /** The release app's published document (oauth/client-metadata.json), served from here under its own URL. */
  const releaseDocument = (scope?: string) => {
    const { client_id: _, client_uri: __, ...published } = JSON.parse(fs.readFileSync(new URL('../../../oauth/client-metadata.json', import.meta.url), 'utf8')) as Record<string, unknown>
    return { ...published, ...(scope ? { scope } : {}) }
  }

  it('signs in the release app’s published client as a group (its group-agnostic scope covers this group) and writes as the group', async () => {
    const client = docs.publish('/release/client-metadata.json', releaseDocument())
    const flow = await authorizationCode(client, groupSessionScope(group().did))
    const tokens = await exchange(flow)
    // Narrowed as for any client: the admin's role writes events only, in this group.
    expect(tokens.scope).toBe(`atproto space:community.lexicon.calendar?authority=${group().did}&skey=self&collection=${EVENT}&action=create&action=update&action=delete`)
    expect(await writeWith(flow, tokens.access_token as string)).toBe(200)
  })

  it('refuses a published client asking for a group scope it does not declare, naming it', async () => {
    const client = docs.publish('/people-only/client-metadata.json', releaseDocument(ATPROTO_NETWORK_SCOPE))
    const res = await post('/oauth/par', parForm({ client_id: client, scope: groupSessionScope(group().did) }), await createDpopKey())
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_scope' } })
    expect(res.body.error_description).toContain(`authority=${group().did}`)
    // Declaring another space for every group covers nothing here.
    const images = docs.publish('/images-only/client-metadata.json', releaseDocument(`atproto space:community.lexicon.calendar?skey=self&collection=example.groups.eventImage`))
    expect(await post('/oauth/par', parForm({ client_id: images, scope: groupSessionScope(group().did) }), await createDpopKey())).toMatchObject({ status: 400, body: { error: 'invalid_scope' } })
  })

  it('keeps a bounded part of the document: a 400 kB one is refused, a padded smaller one is not stored whole', async () => {
    const padding = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x_unknown_${i}`, 'y'.repeat(1000)]))
    const huge = docs.publish('/huge/client-metadata.json', nativeApp({ client_name: 'n'.repeat(200_000), ...padding(200) }))
    expect(await post('/oauth/par', parForm({ client_id: huge }), await createDpopKey())).toMatchObject({ status: 401, body: { error: 'invalid_client' } })

    const padded = docs.publish('/padded/client-metadata.json', nativeApp({ client_name: 'n'.repeat(30_000), ...padding(20) }))
    const res = await post('/oauth/par', parForm({ client_id: padded }), await createDpopKey())
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(storedClientMetadata(res.body.request_uri as string).length).toBeLessThan(1000)
  })
})

describe('the authorization pages', () => {
  async function pushed() {
    const res = await post('/oauth/par', parForm(), await createDpopKey())
    return res.body.request_uri as string
  }
  const pageUrl = (requestUri: string) => `${at('/oauth/authorize')}?${new URLSearchParams({ client_id: clientId(), request_uri: requestUri })}`

  it('serves the sign-in page with a strict CSP, no framing, and an HttpOnly SameSite device cookie', async () => {
    const res = await fetch(pageUrl(await pushed()))
    expect(res.status).toBe(200)
    const csp = res.headers.get('content-security-policy')!
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toContain('script-src')
    expect(csp).not.toContain('unsafe-inline')
    expect(res.headers.get('x-frame-options')).toBe('DENY')
    expect(res.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Lax/)
    const html = await res.text()
    expect(html).not.toContain('<script')
    expect(html).toMatch(/<label for="handle">Your handle<\/label>/)
    expect(html).toContain(`@${group().handle}`)
  })

  it('answers an unknown or expired request_uri with a page saying so (400)', async () => {
    const unknown = await fetch(pageUrl('urn:ietf:params:oauth:request_uri:nope'))
    expect(unknown.status).toBe(400)
    expect(await unknown.text()).toContain('unknown or was already used')

    const requestUri = await pushed()
    const db = new SqliteDatabase(path.join(net.running.dataDir, 'host', 'host.sqlite'))
    try {
      db.pragma('busy_timeout = 5000')
      db.prepare('UPDATE oauth_request SET expiresAt = 0 WHERE id = ?').run(requestUri.split(':').at(-1))
    } finally {
      db.close()
    }
    const expired = await fetch(pageUrl(requestUri))
    expect(expired.status).toBe(400)
    expect(await expired.text()).toContain('expired')
  })

  it('answers an oversize form with a page (413), not a 500', async () => {
    const res = await fetch(at('/oauth/authorize/sign-in'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ request_uri: await pushed(), handle: 'x'.repeat(20_000) }).toString(),
    })
    expect(res.status).toBe(413)
    expect(res.headers.get('content-type')).toContain('text/html')
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
  })

  it('refuses a form posted without the page’s token or the browser’s cookie (CSRF)', async () => {
    const requestUri = await pushed()
    const page = await fetch(pageUrl(requestUri))
    const cookie = page.headers.get('set-cookie')!.split(';')[0]!
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!
    const submit = (fields: Record<string, string>, withCookie: boolean) =>
      fetch(at('/oauth/authorize/sign-in'), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(withCookie ? { cookie } : {}) },
        body: new URLSearchParams({ request_uri: requestUri, handle: net.stack.accounts.find((a) => a.name === 'admin')!.handle, ...fields }).toString(),
      })
    expect((await submit({ csrf: 'forged' }, true)).status).toBe(403)
    expect((await submit({ csrf }, false)).status).toBe(403)
    // With both, the person is sent on to their own server.
    const ok = await submit({ csrf }, true)
    expect(ok.status).toBe(200)
    expect(await ok.text()).toMatch(/http-equiv="refresh"/)
  })
})

describe('the token endpoint', () => {
  it('refuses a wrong code_verifier and another DPoP key, issues once, and a reused code revokes what it issued', async () => {
    const flow = await authorizationCode()
    const exchange = (key: DpopKey, fields: Record<string, string> = {}, state: { nonce?: string } = flow.state) =>
      post('/oauth/token', { grant_type: 'authorization_code', client_id: flow.client, code: flow.code, redirect_uri: flow.redirectUri, code_verifier: flow.verifier, ...fields }, key, state)

    expect(await exchange(flow.key, { code_verifier: pkce().verifier })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
    expect(await exchange(await createDpopKey(), {}, {})).toMatchObject({ status: 400, body: { error: 'invalid_dpop_proof' } })
    expect(await exchange(flow.key, { redirect_uri: 'http://127.0.0.1:1/callback' })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })

    const first = await exchange(flow.key)
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    // No `action` asked: all three meant, and granted explicitly.
    expect(first.body).toMatchObject({ token_type: 'DPoP', sub: group().did, scope: `${scope()}&action=create&action=update&action=delete`, expires_in: 900 })
    expect(first.headers.get('cache-control')).toBe('no-store')

    const again = await exchange(flow.key)
    expect(again).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
    const refresh = await post('/oauth/token', { grant_type: 'refresh_token', client_id: clientId(), refresh_token: first.body.refresh_token as string }, flow.key, flow.state)
    expect(refresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
    // The access token it gave no longer writes either.
    const accessToken = first.body.access_token as string
    const proof = await dpopProof(flow.key, { htm: 'POST', htu: at('/xrpc/com.atproto.space.createRecord'), nonce: flow.state.nonce, accessToken })
    const write = await fetch(at('/xrpc/com.atproto.space.createRecord'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `DPoP ${accessToken}`, dpop: proof },
      body: JSON.stringify({ space: calendar(), repo: group().did, collection: EVENT, record: { $type: EVENT, name: 'x', startsAt: '2026-07-01T12:00:00.000Z', createdAt: new Date().toISOString() } }),
    })
    expect(write.status).toBe(401)
    expect(write.headers.get('www-authenticate')).toContain('invalid_token')
  })

  it('refreshes with the session’s key only, rotates the refresh token, and revocation ends the session', async () => {
    const flow = await authorizationCode()
    const first = await post('/oauth/token', { grant_type: 'authorization_code', client_id: flow.client, code: flow.code, redirect_uri: flow.redirectUri, code_verifier: flow.verifier }, flow.key, flow.state)
    expect(first.status).toBe(200)
    const refresh = (token: string, key = flow.key, state: { nonce?: string } = flow.state) =>
      post('/oauth/token', { grant_type: 'refresh_token', client_id: clientId(), refresh_token: token }, key, state)

    expect(await refresh(first.body.refresh_token as string, await createDpopKey(), {})).toMatchObject({ status: 400, body: { error: 'invalid_dpop_proof' } })
    const second = await refresh(first.body.refresh_token as string)
    expect(second).toMatchObject({ status: 200, body: { token_type: 'DPoP', sub: group().did } })
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token)
    expect(await refresh(first.body.refresh_token as string)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })

    const revoked = await post('/oauth/revoke', { token: second.body.refresh_token as string, client_id: clientId() }, undefined)
    expect(revoked.status).toBe(200)
    expect(await refresh(second.body.refresh_token as string)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })

    // None of it reached the host's log (it logs paths, never queries, headers or bodies).
    await new Promise((r) => setTimeout(r, 200))
    const log = fs.readFileSync(path.join(net.running.dataDir, 'host.log'), 'utf8')
    expect(log).toContain('/oauth/token')
    for (const secret of [flow.code, flow.verifier, first.body.access_token, first.body.refresh_token, second.body.refresh_token] as string[]) {
      expect(log.includes(secret)).toBe(false)
    }
  })

  it('ends the whole session when a rotated-out refresh token is used again (RFC 9700 section 4.14.2)', async () => {
    const flow = await authorizationCode()
    const first = await exchange(flow)
    const refresh = (token: unknown) => post('/oauth/token', { grant_type: 'refresh_token', client_id: clientId(), refresh_token: token as string }, flow.key, flow.state)
    const second = await refresh(first.refresh_token)
    expect(second.status, JSON.stringify(second.body)).toBe(200)
    expect(await writeWith(flow, second.body.access_token as string)).toBe(200)

    // The first token again (a copy in someone else's hands, or the client's own): refused, and the session ends.
    expect(await refresh(first.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
    expect(await refresh(second.body.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
    expect(await writeWith(flow, second.body.access_token as string)).toBe(401)
  })

  it('refuses unknown grant types and codes with OAuth errors', async () => {
    const key = await createDpopKey()
    expect(await post('/oauth/token', { grant_type: 'password', client_id: clientId() }, key)).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } })
    expect(
      await post('/oauth/token', { grant_type: 'authorization_code', client_id: clientId(), code: 'nope', redirect_uri: 'http://127.0.0.1/callback', code_verifier: pkce().verifier }, key),
    ).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
    expect(await post('/oauth/token', { grant_type: 'refresh_token', client_id: clientId() }, key)).toMatchObject({ status: 400, body: { error: 'invalid_request' } })
  })
})

describe('a session after its person is ejected', () => {
  it('writes until then; afterwards the write is refused and the refresh ends the session', async () => {
    const flow = await authorizationCode()
    const tokens = await post('/oauth/token', { grant_type: 'authorization_code', client_id: flow.client, code: flow.code, redirect_uri: flow.redirectUri, code_verifier: flow.verifier }, flow.key, flow.state)
    expect(tokens.status).toBe(200)
    const accessToken = tokens.body.access_token as string
    const write = async () => {
      const proof = await dpopProof(flow.key, { htm: 'POST', htu: at('/xrpc/com.atproto.space.createRecord'), nonce: flow.state.nonce, accessToken })
      const res = await fetch(at('/xrpc/com.atproto.space.createRecord'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `DPoP ${accessToken}`, dpop: proof },
        body: JSON.stringify({ space: calendar(), repo: group().did, collection: EVENT, record: { $type: EVENT, name: 'Walk', startsAt: '2026-07-01T12:00:00.000Z', createdAt: new Date().toISOString() } }),
      })
      if (res.headers.get('dpop-nonce')) flow.state.nonce = res.headers.get('dpop-nonce')!
      return { status: res.status, body: (await res.json()) as Record<string, unknown> }
    }
    expect((await write()).status).toBe(200)

    const ejected = await net.as('owner').call('example.groups.ejectMember', { body: { group: group().did, did: net.as('admin').did } })
    expect(ejected.status).toBe(200)
    expect(await write()).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    const refresh = await post('/oauth/token', { grant_type: 'refresh_token', client_id: clientId(), refresh_token: tokens.body.refresh_token as string }, flow.key, flow.state)
    expect(refresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
  })
})
