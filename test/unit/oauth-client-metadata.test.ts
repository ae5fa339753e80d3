import { describe, expect, it } from 'vitest'
import { allowsRedirect, loadClientMetadata } from '../../src/host/oauth/client-metadata.js'
import { OAuthError } from '../../src/host/oauth/errors.js'

/**
 * Client ID metadata documents as the group host checks them (issue 14). The document
 * is served by a stand-in for the network (a client ID must be https, which the local
 * network is not); the parsing and rules are the host's own.
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

const serving = (body: unknown, status = 200) =>
  (async (url: string | URL | Request, init?: RequestInit) => {
    expect(String(url)).toBe(ID)
    expect(init?.redirect).toBe('error')
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
  }) as typeof fetch

async function refusal(clientId: unknown, fetch: typeof globalThis.fetch = serving(goodDoc)) {
  const err = await loadClientMetadata(clientId, fetch).catch((e: unknown) => e)
  expect(err).toBeInstanceOf(OAuthError)
  return err as OAuthError
}

describe('client ID metadata documents', () => {
  it('takes a valid public web client’s document', async () => {
    const m = await loadClientMetadata(ID, serving(goodDoc))
    expect(m).toMatchObject({ client_id: ID, client_name: 'Example app', redirect_uris: ['https://app.example.com/callback'] })
  })

  it('refuses a document naming another client_id, a confidential client, tokens without DPoP, no atproto', async () => {
    for (const doc of [
      { ...goodDoc, client_id: 'https://evil.example/client-metadata.json' },
      { ...goodDoc, token_endpoint_auth_method: 'private_key_jwt', token_endpoint_auth_signing_alg: 'ES256', jwks_uri: 'https://app.example.com/jwks.json' },
      { ...goodDoc, dpop_bound_access_tokens: false },
      { ...goodDoc, scope: 'transition:generic' },
      { ...goodDoc, redirect_uris: ['http://app.example.com/callback'] },
    ]) {
      expect((await refusal(ID, serving(doc))).error, JSON.stringify(doc)).toBe('invalid_client')
    }
  })

  it('refuses what is not a document: a 404, not JSON, not metadata', async () => {
    expect((await refusal(ID, serving({}, 404))).error).toBe('invalid_client')
    expect((await refusal(ID, (async () => new Response('<html>')) as typeof fetch)).error).toBe('invalid_client')
    expect((await refusal(ID, serving({ hello: 'world' }))).error).toBe('invalid_client')
  })

  it('refuses client IDs that are neither http://localhost nor https documents', async () => {
    expect((await refusal('http://app.example.com/client.json')).error).toBe('invalid_client')
    expect((await refusal('app')).error).toBe('invalid_client')
    expect((await refusal(`https://app.example.com/${'x'.repeat(3000)}`)).error).toBe('invalid_client')
    expect((await refusal(undefined)).error).toBe('invalid_request')
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
