import { describe, expect, it } from 'vitest'
import { allowsRedirect, loadClientMetadata, MAX_CLIENT_DOCUMENT_BYTES, type ClientMetadata } from '../../src/host/oauth/client-metadata.js'
import { ClientMetadataCache } from '../../src/host/oauth/client-cache.js'
import { clientLabel, parseClientId } from '../../src/host/oauth/client-id.js'
import { OAuthError } from '../../src/host/oauth/errors.js'

/**
 * Client ID metadata documents as the group host checks them (issue 14, and issue 22:
 * the rules of `@atproto/oauth-provider`'s client manager). The document is served by a
 * stand-in for the network (a client ID must be https, which the local network is
 * not); the parsing and rules are the host's own.
 */
const ID = 'https://app.example.com/client-metadata.json'
const goodDoc = {
  client_id: ID,
  client_name: 'Example app',
  client_uri: 'https://app.example.com',
  application_type: 'web',
  redirect_uris: ['https://app.example.com/callback'],
  scope: 'atproto',
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
  dpop_bound_access_tokens: true,
}
const nativeDoc = { ...goodDoc, application_type: 'native', redirect_uris: ['com.example.app:/callback', 'http://127.0.0.1/callback'] }

const serving = (body: unknown, status = 200, type = 'application/json') =>
  (async (url: string | URL | Request, init?: RequestInit) => {
    expect(String(url)).toBe(ID)
    expect(init?.redirect).toBe('error')
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': type } })
  }) as typeof fetch

async function refusal(clientId: unknown, fetch: typeof globalThis.fetch = serving(goodDoc)) {
  const err = await loadClientMetadata(clientId, fetch).catch((e: unknown) => e)
  expect(err).toBeInstanceOf(OAuthError)
  return err as OAuthError
}

describe('client ID metadata documents', () => {
  it('takes a valid public web client’s document, and keeps only what PAR checks', async () => {
    const m = await loadClientMetadata(ID, serving(goodDoc))
    expect(m).toEqual({ client_id: ID, application_type: 'web', redirect_uris: ['https://app.example.com/callback'], scope: 'atproto' })
  })

  it('refuses a document naming another client_id, a confidential client, tokens without DPoP, no atproto', async () => {
    for (const doc of [
      { ...goodDoc, client_id: 'https://evil.example/client-metadata.json' },
      { ...goodDoc, client_id: undefined },
      { ...goodDoc, token_endpoint_auth_method: 'private_key_jwt', token_endpoint_auth_signing_alg: 'ES256', jwks_uri: 'https://app.example.com/jwks.json' },
      { ...goodDoc, dpop_bound_access_tokens: false },
      { ...goodDoc, scope: 'transition:generic' },
      { ...goodDoc, redirect_uris: ['http://app.example.com/callback'] },
    ]) {
      expect((await refusal(ID, serving(doc))).error, JSON.stringify(doc)).toBe('invalid_client')
    }
  })

  it('refuses a client_uri off the client ID’s origin, or not a parent of it (the app would be shown as someone else)', async () => {
    for (const clientUri of ['https://convene.app', 'https://other.example.com', 'http://app.example.com', 'https://app.example.com:8443', 'https://app.example.com/elsewhere']) {
      const err = await refusal(ID, serving({ ...goodDoc, client_uri: clientUri }))
      expect(err.error, clientUri).toBe('invalid_client')
      expect(err.message, clientUri).toMatch(/client_uri/)
    }
    for (const clientUri of ['https://app.example.com', 'https://app.example.com/', 'https://app.example.com/client-metadata.json']) {
      expect((await loadClientMetadata(ID, serving({ ...goodDoc, client_uri: clientUri }))).client_id, clientUri).toBe(ID)
    }
  })

  it('takes a native app’s custom scheme only when it is the client ID’s host in reverse order', async () => {
    expect((await loadClientMetadata(ID, serving(nativeDoc))).redirect_uris).toEqual(nativeDoc.redirect_uris)
    for (const scheme of ['app.convene:/callback', 'com.example:/callback', 'com.example.app.evil:/callback']) {
      const err = await refusal(ID, serving({ ...nativeDoc, redirect_uris: [scheme] }))
      expect(err.error, scheme).toBe('invalid_client')
      expect(err.message, scheme).toContain('com.example.app:')
    }
  })

  it('applies oauth-provider’s redirect URI rules by application type', async () => {
    const refused = [
      // Web apps: no loopback, no custom scheme.
      { ...goodDoc, redirect_uris: ['http://127.0.0.1/callback'] },
      { ...goodDoc, redirect_uris: ['com.example.app:/callback'] },
      // Nobody: localhost by name, http off loopback, https to a local domain, credentials, schemes without a dot.
      { ...nativeDoc, redirect_uris: ['http://localhost/callback'] },
      { ...nativeDoc, redirect_uris: ['https://app.example.test/callback'] },
      { ...nativeDoc, redirect_uris: ['https://user:pw@app.example.com/callback'] },
      { ...nativeDoc, redirect_uris: ['myapp:/callback'] },
    ]
    for (const doc of refused) expect((await refusal(ID, serving(doc))).error, JSON.stringify(doc.redirect_uris)).toBe('invalid_client')
    // Native apps may use https redirects (app links), as oauth-provider allows.
    const appLink = await loadClientMetadata(ID, serving({ ...nativeDoc, redirect_uris: ['https://app.example.com/callback'] }))
    expect(appLink.application_type).toBe('native')
  })

  it('applies oauth-provider’s other rules: scopes, grants, keys, OIDC-only and unsupported fields', async () => {
    for (const doc of [
      { ...goodDoc, scope: 'atproto atproto' },
      { ...goodDoc, scope: undefined },
      { ...goodDoc, grant_types: ['authorization_code', 'authorization_code'] },
      { ...goodDoc, grant_types: ['authorization_code', 'implicit'] },
      { ...goodDoc, grant_types: ['refresh_token'] },
      { ...goodDoc, grant_types: ['authorization_code', 'client_credentials'] },
      { ...goodDoc, token_endpoint_auth_signing_alg: 'ES256' },
      { ...goodDoc, jwks: { keys: [] }, jwks_uri: 'https://app.example.com/jwks.json' },
      { ...goodDoc, default_max_age: 60 },
      { ...goodDoc, id_token_signed_response_alg: 'RS256' },
      { ...goodDoc, subject_type: 'pairwise' },
      { ...goodDoc, tls_client_certificate_bound_access_tokens: true },
      { ...goodDoc, authorization_details_types: ['payment'] },
      { ...goodDoc, client_uri: 'https://app.example.test' },
    ]) {
      expect((await refusal(ID, serving(doc))).error, JSON.stringify(doc)).toBe('invalid_client')
    }
  })

  it('refuses what is not a document: a 404, not JSON, not metadata, too large', async () => {
    expect((await refusal(ID, serving({}, 404))).error).toBe('invalid_client')
    expect((await refusal(ID, (async () => new Response('<html>')) as typeof fetch)).error).toBe('invalid_client')
    expect((await refusal(ID, serving(goodDoc, 200, 'text/plain'))).error).toBe('invalid_client')
    expect((await refusal(ID, serving({ hello: 'world' }))).error).toBe('invalid_client')
    const padded = { ...goodDoc, client_name: 'x'.repeat(MAX_CLIENT_DOCUMENT_BYTES) }
    expect((await refusal(ID, serving(padded))).message).toMatch(/too large/i)
    // A body that does not say how long it is is cut off as it arrives, too.
    const streamed = (async () =>
      new Response(
        new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode(JSON.stringify(padded)))
            c.close()
          },
        }),
        { headers: { 'content-type': 'application/json' } },
      )) as typeof fetch
    expect((await refusal(ID, streamed)).error).toBe('invalid_client')
  })

  it('refuses client IDs that are neither http://localhost nor https documents on a public domain', async () => {
    for (const id of [
      'http://app.example.com/client.json',
      'app',
      `https://app.example.com/${'x'.repeat(3000)}`,
      'https://1.2.3.4/client-metadata.json',
      'https://app.example.com/',
      'https://app.example.com/a/../client-metadata.json',
      'https://app.example.test/client-metadata.json',
      'https://client.invalid/client-metadata.json',
      'http://127.0.0.1:8080/client-metadata.json',
    ]) {
      expect((await refusal(id)).error, id).toBe('invalid_client')
    }
    expect((await refusal(undefined)).error).toBe('invalid_request')
  })

  it('takes http://127.0.0.1 documents only with loopback documents allowed (the local network)', async () => {
    const local = 'http://127.0.0.1:8080/client-metadata.json'
    const rules = { allowLoopbackDocuments: true }
    expect(parseClientId(local, rules)).toMatchObject({ kind: 'document', id: local })
    expect(() => parseClientId(local, { allowLoopbackDocuments: false })).toThrow(OAuthError)
    for (const other of ['http://localhost:8080/client-metadata.json', 'http://10.0.0.1/client-metadata.json', 'http://127.0.0.1:8080/']) {
      expect(() => parseClientId(other, rules), other).toThrow(OAuthError)
    }
    const doc = { ...nativeDoc, client_id: local, client_uri: 'http://127.0.0.1:8080', redirect_uris: ['http://127.0.0.1/callback'] }
    const fetchLocal = (async () => new Response(JSON.stringify(doc), { headers: { 'content-type': 'application/json' } })) as typeof fetch
    expect((await loadClientMetadata(local, fetchLocal, rules)).client_id).toBe(local)
    // The same rules hold there: its client_uri may not name another origin.
    const claiming = (async () => new Response(JSON.stringify({ ...doc, client_uri: 'https://convene.app' }), { headers: { 'content-type': 'application/json' } })) as typeof fetch
    expect(await loadClientMetadata(local, claiming, rules).catch((e: unknown) => (e as OAuthError).error)).toBe('invalid_client')
  })

  it('builds a development client from its client ID: redirect and scope from the query', async () => {
    const id = `http://localhost?redirect_uri=${encodeURIComponent('http://127.0.0.1/callback')}&scope=${encodeURIComponent('atproto space:x?authority=did:plc:a&skey=self&collection=a.b.c')}`
    const m = await loadClientMetadata(id, serving(goodDoc))
    expect(m).toMatchObject({ client_id: id, application_type: 'native', redirect_uris: ['http://127.0.0.1/callback'] })
    expect(m.scope).toContain('space:x')
    // Development clients redirect to loopback IPs only.
    expect((await refusal(`http://localhost?redirect_uri=${encodeURIComponent('https://evil.example/cb')}`)).error).toBe('invalid_client')
  })

  it('matches loopback redirects on any port, and nothing else loosely', async () => {
    const m = await loadClientMetadata(`http://localhost?redirect_uri=${encodeURIComponent('http://127.0.0.1/callback')}`, serving(goodDoc))
    expect(allowsRedirect(m, 'http://127.0.0.1:53211/callback')).toBe(true)
    expect(allowsRedirect(m, 'http://127.0.0.1/callback')).toBe(true)
    expect(allowsRedirect(m, 'http://127.0.0.1:53211/other')).toBe(false)
    expect(allowsRedirect(m, 'http://localhost:53211/callback')).toBe(false)
    const web = await loadClientMetadata(ID, serving(goodDoc))
    expect(allowsRedirect(web, 'https://app.example.com/callback')).toBe(true)
    expect(allowsRedirect(web, 'https://app.example.com:8443/callback')).toBe(false)
  })
})

describe('how the pages name a client', () => {
  it('by its client ID’s host: alone for a conventional ID, with the whole ID otherwise', () => {
    expect(clientLabel('https://convene.app/oauth-client-metadata.json')).toEqual({ name: 'convene.app', inSentence: 'convene.app' })
    expect(clientLabel(ID)).toEqual({ name: 'app.example.com', inSentence: 'app.example.com', address: ID })
  })

  it('a development client as what it is, in words that fit inside a sentence (it cannot carry a name)', () => {
    const dev = clientLabel('http://localhost?scope=atproto')
    expect(dev.name).toBe('An app on this computer')
    expect(`Let ${dev.inSentence} act as Open group?`).toBe('Let an app on this computer act as Open group?')
    expect(dev.note).toMatch(/development build/)
  })
})

describe('the client metadata cache', () => {
  const metadata: ClientMetadata = { client_id: ID, application_type: 'web', redirect_uris: ['https://app.example.com/callback'], scope: 'atproto' }

  it('fetches once for many requests, at once or one after another, until the entry is old', async () => {
    let now = 0
    let loads = 0
    const cache = new ClientMetadataCache(
      async () => {
        loads++
        return metadata
      },
      { okMs: 1000, refusedMs: 100, maxBytes: 10_000 },
      () => now,
    )
    await Promise.all(Array.from({ length: 20 }, () => cache.get(ID)))
    expect(loads).toBe(1)
    now = 999
    await cache.get(ID)
    expect(loads).toBe(1)
    now = 1001
    await cache.get(ID)
    expect(loads).toBe(2)
  })

  it('keeps a refusal briefly, and forgets other failures at once', async () => {
    let now = 0
    let loads = 0
    let failure: Error = new OAuthError('invalid_client', 'not valid')
    const cache = new ClientMetadataCache(
      async () => {
        loads++
        throw failure
      },
      { okMs: 1000, refusedMs: 100, maxBytes: 10_000 },
      () => now,
    )
    for (let i = 0; i < 5; i++) await expect(cache.get(ID)).rejects.toThrow('not valid')
    expect(loads).toBe(1)
    now = 101
    failure = new Error('bug')
    await expect(cache.get(ID)).rejects.toThrow('bug')
    await expect(cache.get(ID)).rejects.toThrow('bug')
    expect(loads).toBe(3)
  })

  it('holds no more than its size: the least recently used go first', async () => {
    const loaded: string[] = []
    const cache = new ClientMetadataCache(
      async (id) => {
        loaded.push(id)
        return { ...metadata, client_id: id }
      },
      { okMs: 1000, refusedMs: 100, maxBytes: 600 },
      () => 0,
    )
    const ids = ['a', 'b', 'c', 'd'].map((x) => `https://${x}.example.com/client-metadata.json`)
    for (const id of ids) await cache.get(id)
    loaded.length = 0
    await cache.get(ids[3]!)
    expect(loaded).toEqual([])
    await cache.get(ids[0]!)
    expect(loaded).toEqual([ids[0]])
  })
})
