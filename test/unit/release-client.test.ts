import fs from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { NodeOAuthClient, type NodeSavedSession, type NodeSavedState } from '@atproto/oauth-client-node'
import { requestLocalLock } from '@atproto/oauth-client'
import {
  assertOAuthDiscoverableClientId,
  isConventionalOAuthClientId,
  oauthClientMetadataSchema,
} from '@atproto/oauth-types'
import {
  RELEASE_CLIENT_METADATA,
  chooseClient,
  clientMetadataFor,
  releaseClientMetadata,
  undeclaredScopes,
} from '../../src/main/core/accounts/client-identity.js'
import { RpcPermission, ScopePermissions } from '@atproto/oauth-scopes'
import { ATPROTO_NETWORK_SCOPE, HOST_METHODS, RELEASE_CLIENT_SCOPE, SPACE_READ_METHODS } from '../../src/shared/scopes.js'
import { ANY_GROUP_SESSION_SCOPE, groupSessionScope } from '../../src/shared/group-scope.js'
import { undeclaredAtGroupHost } from '../../src/shared/declared-scopes.js'

const doc = JSON.parse(fs.readFileSync(new URL('../../oauth/client-metadata.json', import.meta.url), 'utf8')) as Record<string, unknown>
const releaseId = doc.client_id as string

const memoryStore = <V>() => {
  const m = new Map<string, V>()
  return { get: async (k: string) => m.get(k), set: async (k: string, v: V) => void m.set(k, v), del: async (k: string) => void m.delete(k) }
}
const stores = () => ({ sessionStore: memoryStore<NodeSavedSession>(), stateStore: memoryStore<NodeSavedState>() })
/** The oauth-client validates its metadata (atproto's rules for clients) when it is created. */
const clientFor = (clientMetadata: ReturnType<typeof releaseClientMetadata>) =>
  new NodeOAuthClient({ clientMetadata, requestLock: requestLocalLock, ...stores() })

describe('the release client metadata document (oauth/client-metadata.json)', () => {
  it('is a valid atproto client metadata document for a native app', () => {
    const parsed = oauthClientMetadataSchema.parse(doc)
    expect(parsed.client_id).toBe(releaseId)
    assertOAuthDiscoverableClientId(releaseId)
    expect(isConventionalOAuthClientId(releaseId)).toBe(true)
    expect(parsed).toMatchObject({
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      dpop_bound_access_tokens: true,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: ['http://127.0.0.1/callback'],
    })
    // The authorization server's rule for discoverable clients: client_uri shares the id's origin.
    expect(parsed.client_uri).toBeDefined()
    expect(new URL(String(parsed.client_uri)).origin).toBe(new URL(releaseId).origin)
    // atproto's own client-side validation (validateClientMetadata) runs in the constructor.
    expect(() => clientFor(releaseClientMetadata(releaseId, 51234))).not.toThrow()
  })

  it('declares exactly the scope the app asks for on the real network, and acting as any group', () => {
    expect(doc.scope).toBe(RELEASE_CLIENT_SCOPE)
    expect(doc.scope).toBe(`${ATPROTO_NETWORK_SCOPE} ${ANY_GROUP_SESSION_SCOPE}`)
  })

  it('covers acting as any group at a group host, and nothing wider there', () => {
    const declared = releaseClientMetadata(releaseId).scope!
    for (const group of ['did:plc:abcdefghijklmnopqrstuvwx', 'did:web:club.example']) {
      expect(undeclaredAtGroupHost(declared, groupSessionScope(group))).toEqual([])
    }
    const image = 'space:community.lexicon.calendar?authority=did:plc:abcdefghijklmnopqrstuvwx&skey=self&collection=example.groups.eventImage'
    expect(undeclaredAtGroupHost(declared, `atproto ${image}`)).toEqual([image])
    // A PDS compares strings: there the group's scope is not declared (nor asked for).
    expect(undeclaredScopes({ scope: declared }, groupSessionScope('did:plc:abcdefghijklmnopqrstuvwx'))).toHaveLength(1)
  })

  it('lets a session mint service auth for every host method on any group host, and nothing wider', () => {
    // The scope string must already be in oauth-scopes' normal form: servers compare strings.
    for (const scope of ATPROTO_NETWORK_SCOPE.split(' ')) {
      const parsed = RpcPermission.fromString(scope)
      if (parsed) expect(String(parsed)).toBe(scope)
    }
    const granted = new ScopePermissions(ATPROTO_NETWORK_SCOPE)
    const hosts = ['did:web:groups.example#groups', 'did:plc:abcdefghijklmnopqrstuvwx#groups']
    for (const aud of hosts) {
      for (const lxm of HOST_METHODS) expect(granted.allowsRpc({ aud, lxm }), `${lxm} on ${aud}`).toBe(true)
      expect(granted.allowsRpc({ aud, lxm: 'com.atproto.server.createAccount' })).toBe(false)
      expect(granted.allowsRpc({ aud, lxm: 'example.groups.notifyWrite' })).toBe(false)
    }
    // Every method a group host serves to people, read from the lexicons themselves (not
    // from the permission set the scope is built from): a new method missing from the
    // base permission set fails here. notifyWrite is the PDS's, never the app's. The
    // change stream (a subscription) takes service auth like the rest.
    const dir = new URL('../../lexicons/example/groups/', import.meta.url)
    const served = fs
      .readdirSync(dir)
      .map((f) => JSON.parse(fs.readFileSync(new URL(f, dir), 'utf8')) as { id: string; defs: { main?: { type?: string } } })
      .filter((l) => l.defs.main?.type === 'query' || l.defs.main?.type === 'procedure' || l.defs.main?.type === 'subscription')
      .map((l) => l.id)
      .filter((id) => id !== 'example.groups.notifyWrite')
    expect(HOST_METHODS).toEqual([...served, ...SPACE_READ_METHODS].sort())
  })

  it('is the metadata the app signs in with, redirecting to the sign-in port', () => {
    const client = clientFor(releaseClientMetadata(releaseId, 51234))
    expect(client.clientMetadata.client_id).toBe(releaseId)
    expect(client.clientMetadata.redirect_uris).toEqual(['http://127.0.0.1:51234/callback'])
    expect(client.clientMetadata.scope).toBe(RELEASE_CLIENT_METADATA.scope)
  })

  it('names the scopes a sign-in would ask for that the document does not declare (servers refuse them)', () => {
    const release = releaseClientMetadata(releaseId)
    expect(undeclaredScopes(release, ATPROTO_NETWORK_SCOPE)).toEqual([])
    const hostScope = 'rpc:com.atproto.space.getRecord?aud=did:web:host.example%23groups'
    expect(undeclaredScopes(release, `${ATPROTO_NETWORK_SCOPE} ${hostScope}`)).toEqual([hostScope])
    // The development client declares whatever it asks for.
    expect(undeclaredScopes(clientMetadataFor({ kind: 'development' }, `atproto ${hostScope}`), `atproto ${hostScope}`)).toEqual([])
  })

  it('refuses a build whose client id is not the document the repository keeps', () => {
    expect(() => releaseClientMetadata('https://elsewhere.example/oauth-client-metadata.json')).toThrow(/not the client_id/)
  })
})

describe('choosing the client', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
    vi.resetModules()
  })

  it('a release build on the real network signs in as the URL client', () => {
    const choice = chooseClient({ buildClientId: releaseId, localNetwork: false })
    expect(choice).toEqual({ kind: 'release', clientId: releaseId })
    expect(clientMetadataFor(choice, ATPROTO_NETWORK_SCOPE, 4000).client_id).toBe(releaseId)
  })

  it('without a build-time id, or on the local network, it is the localhost development client', () => {
    for (const choice of [
      chooseClient({ buildClientId: undefined, localNetwork: false }),
      chooseClient({ buildClientId: releaseId, localNetwork: true }),
    ]) {
      expect(choice).toEqual({ kind: 'development' })
      const md = clientMetadataFor(choice, 'atproto', 4000)
      expect(md.client_id).toMatch(/^http:\/\/localhost\?/)
      expect(md.redirect_uris).toEqual(['http://127.0.0.1:4000/callback'])
    }
  })

  it('the build-time variable reaches createOAuthClient (the expression electron-vite replaces)', async () => {
    const create = async () => {
      vi.resetModules()
      const { createOAuthClient } = await import('../../src/main/core/accounts/oauth-client.js')
      return (allowHttp: boolean) =>
        createOAuthClient({ network: { allowHttp }, scope: ATPROTO_NETWORK_SCOPE, port: 4000, ...stores() })
          .clientMetadata.client_id
    }
    vi.stubEnv('CONVENE_OAUTH_CLIENT_ID', releaseId)
    const release = await create()
    expect(release(false)).toBe(releaseId)
    expect(release(true)).toMatch(/^http:\/\/localhost\?/)
    vi.stubEnv('CONVENE_OAUTH_CLIENT_ID', '')
    expect((await create())(false)).toMatch(/^http:\/\/localhost\?/)
  })

  it('the main bundle is built with that variable replaced', () => {
    const config = fs.readFileSync(new URL('../../electron.vite.config.ts', import.meta.url), 'utf8')
    expect(config).toContain("'process.env.CONVENE_OAUTH_CLIENT_ID': JSON.stringify(process.env.CONVENE_OAUTH_CLIENT_ID")
  })
})
