import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose'
import { XRPCError } from '@atproto/xrpc-server'
import { openHostDb, type HostDb } from '../../src/host/db/index.js'
import { DpopVerifier } from '../../src/host/auth/dpop.js'
import { DatabaseReplayStore } from '../../src/host/auth/dpop-replay-store.js'
import type { DpopChecker } from '../../src/host/auth/dpop-answers.js'
import { challengeValue } from '../../src/host/auth/www-authenticate.js'
import { OAuthError } from '../../src/host/oauth/errors.js'
import { createDpopKey, dpopProof, type DpopKey } from '../../src/node/dpop.js'

const HOST = 'https://groups.example.com'
const PATH = '/xrpc/example.groups.getGroupAuth'
const URL_ = `${HOST}${PATH}`

let dir: string
let db: HostDb
const secret = randomBytes(32)
let verifier: DpopVerifier

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dpop-'))
  db = await openHostDb(dir, randomBytes(32))
  verifier = new DpopVerifier(db, secret, HOST)
})

afterAll(async () => {
  await db.destroy()
  fs.rmSync(dir, { recursive: true, force: true })
})

afterEach(() => {
  vi.useRealTimers()
})

/** What a caller would see: status, error name and the headers set, or the accepted key. */
async function send(proof: string | undefined, opts: { checker?: DpopChecker; accessToken?: string; boundTo?: string; by?: DpopVerifier } = {}) {
  const headers = new Map<string, string>()
  const res = { setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), value) }
  const req = { method: 'POST', originalUrl: PATH, headers: proof === undefined ? {} : { dpop: proof } }
  try {
    const { jkt } = await (opts.by ?? verifier).verify(req, res, { checker: opts.checker ?? 'getGroupAuth', accessToken: opts.accessToken, boundTo: opts.boundTo })
    return { status: 200, jkt, headers }
  } catch (err) {
    if (err instanceof XRPCError) return { status: err.statusCode, error: err.error, message: err.message, headers }
    if (err instanceof OAuthError) return { status: err.status, error: err.error, message: err.message, headers }
    throw err
  }
}

/** The nonce the host hands out, from a challenge. */
async function nonce(): Promise<string> {
  const res = await send(await dpopProof(await createDpopKey(), { htm: 'POST', htu: URL_ }))
  return res.headers.get('dpop-nonce')!
}

describe('a DPoP proof refused, as each checker answers it', () => {
  it('answers no proof DpopRequired: 400 on getGroupAuth, 401 with a challenge on a resource, invalid_dpop_proof on the OAuth server', async () => {
    expect(await send(undefined)).toMatchObject({ status: 400, error: 'DpopRequired' })
    const resource = await send(undefined, { checker: 'resource' })
    expect(resource).toMatchObject({ status: 401, error: 'DpopRequired' })
    expect(resource.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_dpop_proof", error_description="[^"]+"/)
    expect(await send(undefined, { checker: 'authServer' })).toMatchObject({ status: 400, error: 'invalid_dpop_proof' })
    for (const checker of ['getGroupAuth', 'resource', 'authServer'] as const) expect((await send(undefined, { checker })).headers.has('dpop-nonce')).toBe(false)
  })

  it('challenges a proof without the host’s nonce: 401 with WWW-Authenticate on XRPC, a 400 OAuth error on the OAuth server, DPoP-Nonce on both', async () => {
    const key = await createDpopKey()
    const xrpc = await send(await dpopProof(key, { htm: 'POST', htu: URL_ }))
    expect(xrpc).toMatchObject({ status: 401, error: 'use_dpop_nonce' })
    expect(xrpc.headers.get('www-authenticate')).toMatch(/^DPoP error="use_dpop_nonce"/)
    expect(xrpc.headers.get('dpop-nonce')).toBeTruthy()

    const oauth = await send(await dpopProof(key, { htm: 'POST', htu: URL_, nonce: 'made-up' }), { checker: 'authServer' })
    expect(oauth).toMatchObject({ status: 400, error: 'use_dpop_nonce' })
    expect(oauth.headers.has('www-authenticate')).toBe(false)
    expect(oauth.headers.get('dpop-nonce')).toBeTruthy()
  })

  it('answers a nonce-less proof with the challenge before checking its signature', async () => {
    const proof = await dpopProof(await createDpopKey(), { htm: 'POST', htu: URL_ })
    const [h, p] = proof.split('.')
    expect(await send(`${h}.${p}.${'A'.repeat(86)}`)).toMatchObject({ status: 401, error: 'use_dpop_nonce' })
  })

  it('answers InvalidDpop for a wrong htm, htu (a query too), ath, key, or a jti too long to keep, with no nonce to retry with', async () => {
    const key = await createDpopKey()
    const good = { htm: 'POST', htu: URL_, nonce: await nonce() }
    const extractable = await generateKeyPair('ES256', { extractable: true })
    const { kty, crv, x, y } = await exportJWK(extractable.publicKey)
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT({ ...good, jti: crypto.randomUUID(), ...claims }).setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty, crv, x, y } }).setIssuedAt().sign(extractable.privateKey)

    const cases: [string, string, Parameters<typeof send>[1]?][] = [
      ['wrong htm', await dpopProof(key, { ...good, htm: 'GET' })],
      ['wrong htu', await dpopProof(key, { ...good, htu: `${HOST}/xrpc/example.groups.createSpace` })],
      ['htu with a query', await sign({ htu: `${URL_}?x=1` })],
      ['htu with a fragment', await sign({ htu: `${URL_}#x` })],
      ['jti of 257 characters', await sign({ jti: 'j'.repeat(257) })],
      ['no ath with a token', await dpopProof(key, good), { accessToken: 'token' }],
      ['the ath of another token', await dpopProof(key, { ...good, accessToken: 'other' }), { accessToken: 'token' }],
      ['another key than the bound one', await dpopProof(key, good), { boundTo: (await createDpopKey()).jkt }],
    ]
    expect((await send(await sign({ jti: 'j'.repeat(256) }))).status).toBe(200)
    for (const [name, proof, opts] of cases) {
      const res = await send(proof, opts)
      expect(res, name).toMatchObject({ status: 400, error: 'InvalidDpop' })
      expect(res.headers.has('dpop-nonce'), name).toBe(false)
    }
  })

  it('answers InvalidDpop, never another error, whatever the caller puts in the header’s jwk', async () => {
    const good = { htm: 'POST', htu: URL_, nonce: await nonce() }
    const extractable = await generateKeyPair('ES256', { extractable: true })
    const privateJwk = await exportJWK(extractable.privateKey)
    const { kty, crv, x, y } = privateJwk
    const ec = { kty, crv, x, y }
    const shapes: unknown[] = [
      undefined, 'x', 1, true, null, [], [ec], {}, { kty: 'EC' }, { ...ec, x: 1 }, { ...ec, y: '' }, privateJwk,
      { kty: 'oct', k: 'c2VjcmV0' }, { ...ec, crv: 'secp256k1' }, { kty: 'OKP', crv: 'X25519', x }, { kty: 'toString', x, y }, { kty: '__proto__' },
      { kty: 'AKP', alg: 'ML-DSA-44', pub: 'eA' }, { kty: 'RSA', n: 'bg', e: 'AQAB' },
    ]
    for (const jwk of shapes) {
      const proof = await new SignJWT({ ...good, jti: crypto.randomUUID() })
        .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: jwk as JWK })
        .setIssuedAt()
        .sign(extractable.privateKey)
      expect(await send(proof), JSON.stringify(jwk) ?? 'undefined').toMatchObject({ status: 400, error: 'InvalidDpop' })
    }
  })
})

describe('a DPoP proof accepted', () => {
  let key: DpopKey
  beforeAll(async () => {
    key = await createDpopKey()
  })

  it('gives its key’s thumbprint and the next nonce, once: the same proof again is InvalidDpop, also for a verifier started anew', async () => {
    const proof = await dpopProof(key, { htm: 'POST', htu: URL_, nonce: await nonce(), accessToken: 'token' })
    const first = await send(proof, { checker: 'resource', accessToken: 'token', boundTo: key.jkt })
    expect(first).toMatchObject({ status: 200, jkt: key.jkt })
    expect(first.headers.get('dpop-nonce')).toBeTruthy()
    const again = await send(proof, { checker: 'resource', accessToken: 'token', boundTo: key.jkt })
    expect(again).toMatchObject({ status: 401, error: 'InvalidDpop' })
    expect(again.message).toMatch(/used before/)
    const restarted = new DpopVerifier(db, secret, HOST)
    expect(await send(proof, { checker: 'resource', accessToken: 'token', boundTo: key.jkt, by: restarted })).toMatchObject({ status: 401, error: 'InvalidDpop' })
  })

  it('takes the nonce it handed out minutes after it started (nonces rotate)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const started = new DpopVerifier(db, randomBytes(32), HOST)
    vi.setSystemTime(Date.now() + 5 * 60_000)
    const challenge = await send(await dpopProof(key, { htm: 'POST', htu: URL_ }), { by: started })
    expect(challenge.status).toBe(401)
    const retry = await send(await dpopProof(key, { htm: 'POST', htu: URL_, nonce: challenge.headers.get('dpop-nonce')! }), { by: started })
    expect(retry).toMatchObject({ status: 200, jkt: key.jkt })
  })

  it('keeps ids per key: another key may use the same jti', async () => {
    const n = await nonce()
    const sign = async (k: DpopKey) => new SignJWT({ htm: 'POST', htu: URL_, nonce: n, jti: 'shared-id' }).setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: k.jwk }).setIssuedAt().sign(k.privateKey)
    expect((await send(await sign(key))).status).toBe(200)
    expect((await send(await sign(await createDpopKey()))).status).toBe(200)
    expect(await send(await sign(key))).toMatchObject({ status: 400, error: 'InvalidDpop' })
  })
})

describe('the replay store in the host database', () => {
  it('takes an id once within its time frame, and forgets it once the frame is over and a minute has passed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const store = new DatabaseReplayStore(db)
    expect(await store.unique('DPoP@k', 'id-1', 10_000)).toBe(true)
    expect(await store.unique('DPoP@k', 'id-1', 10_000)).toBe(false)
    expect(await store.unique('DPoP@other', 'id-1', 10_000)).toBe(true)
    vi.setSystemTime(Date.now() + 30_000)
    expect(await store.unique('DPoP@k', 'id-1', 10_000)).toBe(false) // expired, not yet pruned
    vi.setSystemTime(Date.now() + 60_000)
    expect(await store.unique('DPoP@k', 'id-1', 10_000)).toBe(true)
  })
})

describe('WWW-Authenticate: DPoP challenges', () => {
  it('name the error and keep the description a valid quoted string', () => {
    const value = challengeValue('invalid_dpop_proof', 'The proof’s "htu" must be \\ the URL — ok')
    expect(value).toMatch(/^DPoP error="invalid_dpop_proof", error_description="[\x20\x21\x23-\x5b\x5d-\x7e]*", algs="[^"]+"$/)
    expect(challengeValue(undefined)).toMatch(/^DPoP algs="ES256 /)
  })
})
