import { describe, expect, it, vi } from 'vitest'
import fc from 'fast-check'
import type { MethodAuthContext } from '@atproto/xrpc-server'
import { serviceAuth } from '../../src/host/auth/service-auth.js'
import type { HostContext } from '../../src/host/context.js'

const AUD = 'did:plc:abcdefghijklmnopqrstuvwx#groups'
const LXM = 'example.groups.getGroup'
const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url')
const SIG = b64(Buffer.alloc(64, 7).toString('latin1')).slice(0, 86).padEnd(86, 'A')
const now = () => Math.floor(Date.now() / 1000)
const claims = (over: Record<string, unknown> = {}) => ({ iss: 'did:plc:abcdefghijklmnopqrstuvwx', aud: AUD, lxm: LXM, exp: now() + 60, iat: now(), ...over })
const jwt = (header: unknown, payload: unknown, sig = SIG) => `${b64(header)}.${b64(payload)}.${sig}`

/** serviceAuth over a resolver that only counts: every DID lookup a token causes shows. */
function setup() {
  // A document with a key that signed none of these tokens: a resolved issuer still ends in a 401.
  const resolveDid = vi.fn(async (did: string) => ({
    id: did,
    verificationMethod: [
      { id: `${did}#atproto`, type: 'Multikey', controller: did, publicKeyMultibase: 'zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme' },
    ],
  }))
  const ctx = { identity: { aud: AUD }, idResolver: { did: { resolve: resolveDid } } } as unknown as HostContext
  const verify = serviceAuth(ctx)
  const call = (authorization: string) =>
    verify({ req: { headers: { authorization }, originalUrl: `/xrpc/${LXM}`, url: `/xrpc/${LXM}` }, res: { locals: {} } } as unknown as MethodAuthContext)
  return { call, resolveDid }
}

describe('service auth: nothing is resolved for a token that fails what needs no key', () => {
  const garbage: [string, string][] = [
    ['not a jwt', 'garbage'],
    ['two parts', 'a.b'],
    ['undecodable parts', 'a.b.c'],
    ['alg none', jwt({ alg: 'none' }, claims(), '')],
    ['alg HS256', jwt({ alg: 'HS256' }, claims())],
    ['an access token typ', jwt({ alg: 'ES256K', typ: 'at+jwt' }, claims())],
    ['a DPoP proof typ', jwt({ alg: 'ES256K', typ: 'dpop+jwt' }, claims())],
    ['expired', jwt({ alg: 'ES256K' }, claims({ exp: now() - 10 }))],
    ['another audience', jwt({ alg: 'ES256K' }, claims({ aud: 'did:plc:zzzzzzzzzzzzzzzzzzzzzzzz#groups' }))],
    ['another method', jwt({ alg: 'ES256K' }, claims({ lxm: 'example.groups.createGroup' }))],
    ['no method', jwt({ alg: 'ES256K' }, claims({ lxm: undefined }))],
    ['a did:key issuer', jwt({ alg: 'ES256K' }, claims({ iss: 'did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme' }))],
    ['a did:example issuer', jwt({ alg: 'ES256K' }, claims({ iss: 'did:example:123' }))],
    ['a malformed did:plc', jwt({ alg: 'ES256K' }, claims({ iss: 'did:plc:../../admin' }))],
    ['a did:web with a path', jwt({ alg: 'ES256K' }, claims({ iss: 'did:web:example.com:users:alice' }))],
    ['an empty signature', jwt({ alg: 'ES256K' }, claims(), '')],
    ['a short signature', jwt({ alg: 'ES256K' }, claims(), 'abc')],
    ['a huge token', jwt({ alg: 'ES256K' }, claims({ pad: 'x'.repeat(20_000) }))],
  ]
  for (const [name, token] of garbage) {
    it(`refuses ${name} with 401 and resolves no DID`, async () => {
      const { call, resolveDid } = setup()
      await expect(call(`Bearer ${token}`)).rejects.toMatchObject({ type: 401 })
      expect(resolveDid).not.toHaveBeenCalled()
    })
  }

  it('refuses random tokens, even with this host’s aud and method, without resolving', async () => {
    const { call, resolveDid } = setup()
    const header = fc.record({ alg: fc.oneof(fc.constantFrom('ES256K', 'ES256', 'none', 'HS256'), fc.string()), typ: fc.option(fc.string()) })
    const payload = fc.record({
      iss: fc.oneof(fc.string(), fc.constantFrom('did:key:z', 'did:plc:short', 'did:web:')),
      aud: fc.constantFrom(AUD, 'x'),
      lxm: fc.constantFrom(LXM, undefined),
      exp: fc.oneof(fc.integer(), fc.constant(now() - 1), fc.string()),
    })
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.tuple(header, payload, fc.string()).map(([h, p, s]) => jwt(h, p, s))), async (token) => {
        await expect(call(`Bearer ${token}`)).rejects.toMatchObject({ type: 401 })
      }),
      { numRuns: 300 },
    )
    expect(resolveDid).not.toHaveBeenCalled()
  })

  it('does resolve the issuer of a token that passes (a did:plc or a did:web), so the checks above are what stop the others', async () => {
    for (const iss of ['did:plc:abcdefghijklmnopqrstuvwx', 'did:web:groups.example%3A8443']) {
      const { call, resolveDid } = setup()
      await expect(call(`Bearer ${jwt({ alg: 'ES256K' }, claims({ iss }))}`)).rejects.toMatchObject({ type: 401 })
      expect(resolveDid).toHaveBeenCalledWith(iss, false)
    }
  })
})
