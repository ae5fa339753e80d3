import { webcrypto } from 'node:crypto'
import { Secp256k1Keypair } from '@atproto/crypto'
import fc from 'fast-check'
import { exportJWK, type CryptoKey } from 'jose'
import { oddString, wrongValue } from './lexicon-arbitraries.js'
import type { FuzzHost, FuzzPerson, Person } from './fuzz-host.js'
import { PEOPLE } from './fuzz-host.js'

/**
 * Garbage for `Authorization` and `DPoP` headers. Arbitraries describe a token (its
 * header, claims and how to sign it) rather than hold one, because signing is async
 * and a described token reads well in a counterexample; `materialize*` turns the
 * description into the header value just before the request.
 */

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v) ?? 'undefined').toString('base64url')

/** How a described JWT is signed. */
export type Signer =
  | { by: 'person'; person: Person } // the issuer's real key: only the claims are wrong
  | { by: 'stranger' } // a key in no DID document
  | { by: 'none' } // empty signature
  | { by: 'garbage'; sig: string }

export interface TokenSpec {
  kind: 'jwt'
  header: unknown
  claims: unknown
  signer: Signer
}

export type AuthSpec =
  | { kind: 'absent' }
  | { kind: 'raw'; value: string }
  | { kind: 'segments'; scheme: string; parts: string[] }
  | { kind: 'huge'; scheme: string; length: number }
  | (TokenSpec & { scheme: string })

const SCHEMES = ['Bearer ', 'DPoP ', 'bearer ', 'dpop ', 'Basic ', 'Bearer  ', 'Bearer\t', '', 'Token ', 'Bearer Bearer ']

const now = () => Math.floor(Date.now() / 1000)

/** Claims a service-auth token might carry, each now and then wrong or missing. */
function serviceClaimsArb(host: FuzzHost, lxms: string[]): fc.Arbitrary<Record<string, unknown>> {
  const dids = [...PEOPLE.map((p) => host.people[p].did), ...host.groups.map((g) => g.did), host.serviceDid]
  return fc.record(
    {
      iss: fc.oneof(
        fc.constantFrom(...dids),
        fc.constantFrom(...dids).map((d) => `${d}#atproto`),
        fc.constantFrom('did:plc:aaaaaaaaaaaaaaaaaaaaaaaa', 'did:web:fuzz.invalid', 'did:web:localhost%3A1', 'did:key:z', 'nobody', ''),
        wrongValue,
      ),
      aud: fc.oneof(fc.constant(host.aud), fc.constant(host.serviceDid), fc.constantFrom('did:web:elsewhere.invalid#groups', ''), wrongValue),
      lxm: fc.oneof(fc.constantFrom(...lxms), fc.constantFrom('*', 'com.atproto.server.createSession', ''), wrongValue),
      exp: fc.oneof(
        fc.integer({ min: -3600, max: 3600 }).map((d) => now() + d),
        fc.constantFrom(0, -1, 2 ** 53, 1e300, 'tomorrow', null, now() + 10 * 365 * 86400),
      ),
      iat: fc.oneof(fc.integer({ min: -7200, max: 60 }).map((d) => now() + d), wrongValue),
      jti: fc.oneof(fc.stringMatching(/^[0-9a-f]{32}$/), wrongValue),
    },
    { requiredKeys: [] },
  )
}

const jwtHeaderArb = fc.oneof(
  fc.constantFrom(
    { typ: 'JWT', alg: 'ES256K' },
    { typ: 'JWT', alg: 'ES256' },
    { alg: 'none' },
    { typ: 'JWT', alg: 'none' },
    { typ: 'at+jwt', alg: 'ES256K' },
    { typ: 'refresh+jwt', alg: 'ES256K' },
    { typ: 'dpop+jwt', alg: 'ES256K' },
    { typ: 'JWT', alg: 'HS256' },
    { typ: 'JWT', alg: 'RS256' },
    { typ: 'JWT' },
    { typ: 'JWT', alg: 'ES256K', crit: ['exp'] },
    { typ: 'JWT', alg: 'ES256K', kid: '../../../../etc/passwd' },
  ),
  fc.record({ typ: wrongValue, alg: wrongValue }, { requiredKeys: [] }),
  wrongValue,
)

const signerArb: fc.Arbitrary<Signer> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PEOPLE).map((person) => ({ by: 'person' as const, person })) },
  { weight: 3, arbitrary: fc.constant({ by: 'stranger' as const }) },
  { weight: 1, arbitrary: fc.constant({ by: 'none' as const }) },
  { weight: 1, arbitrary: fc.base64String({ maxLength: 200 }).map((sig) => ({ by: 'garbage' as const, sig })) },
)

/** `Authorization` header values, all of them wrong in some way (or absent). */
export function garbageAuthArb(host: FuzzHost, lxms: string[]): fc.Arbitrary<AuthSpec> {
  const scheme = fc.constantFrom(...SCHEMES)
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant({ kind: 'absent' as const }) },
    { weight: 1, arbitrary: oddString.map((value) => ({ kind: 'raw' as const, value })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(scheme, fc.array(fc.oneof(fc.base64String({ maxLength: 80 }), fc.string({ maxLength: 10 })), { minLength: 1, maxLength: 5 }))
        .map(([s, parts]) => ({ kind: 'segments' as const, scheme: s, parts })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(scheme, fc.constantFrom(2_000, 8_000, 12_000, 40_000))
        .map(([s, length]) => ({ kind: 'huge' as const, scheme: s, length })),
    },
    {
      weight: 6,
      arbitrary: fc.tuple(scheme, jwtHeaderArb, fc.oneof({ weight: 4, arbitrary: serviceClaimsArb(host, lxms) }, { weight: 1, arbitrary: wrongValue }), signerArb).map(
        ([s, header, claims, signer]) => ({ kind: 'jwt' as const, scheme: s, header, claims, signer }),
      ),
    },
  )
}

let strangerKey: Promise<Secp256k1Keypair> | undefined
const stranger = () => (strangerKey ??= Secp256k1Keypair.create())

async function signJwt(spec: TokenSpec, people: Record<Person, FuzzPerson>): Promise<string> {
  const signingInput = `${b64(spec.header)}.${b64(spec.claims)}`
  switch (spec.signer.by) {
    case 'none':
      return `${signingInput}.`
    case 'garbage':
      return `${signingInput}.${spec.signer.sig}`
    case 'stranger':
      return `${signingInput}.${Buffer.from(await (await stranger()).sign(Buffer.from(signingInput))).toString('base64url')}`
    case 'person': {
      const key = people[spec.signer.person].key
      return `${signingInput}.${Buffer.from(await key.sign(Buffer.from(signingInput))).toString('base64url')}`
    }
  }
}

/** The `Authorization` header value an AuthSpec describes (undefined: no header). */
export async function materializeAuth(spec: AuthSpec, people: Record<Person, FuzzPerson>): Promise<string | undefined> {
  switch (spec.kind) {
    case 'absent':
      return undefined
    case 'raw':
      return spec.value
    case 'segments':
      return spec.scheme + spec.parts.join('.')
    case 'huge':
      return spec.scheme + `${b64({ alg: 'ES256K' })}.${'A'.repeat(spec.length)}.sig`
    case 'jwt':
      return spec.scheme + (await signJwt(spec, people))
  }
}

// ---------------------------------------------------------------------------------
// DPoP proofs

/** A P-256 key for proofs: the suite's own DPoP key (extractable, unlike the app's). */
export interface ProofKey {
  privateKey: CryptoKey
  jwk: Record<string, unknown>
  privateJwk: Record<string, unknown>
}

export async function createProofKey(): Promise<ProofKey> {
  const { privateKey, publicKey } = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])
  const { kty, crv, x, y } = await exportJWK(publicKey)
  return { privateKey, jwk: { kty, crv, x, y }, privateJwk: { ...(await exportJWK(privateKey)) } }
}

/** What a proof's header `jwk` holds: the signing key, or anything but. */
export type JwkChoice = { use: 'own' } | { use: 'other' } | { use: 'private' } | { use: 'value'; value: unknown }

/** A claim's value: the right one for the request, or a given (wrong) one, or absent. */
export type ClaimChoice = { use: 'right' } | { use: 'absent' } | { use: 'value'; value: unknown }

export interface ProofSpec {
  kind: 'proof'
  typ: unknown
  alg: unknown
  jwk: JwkChoice
  htm: ClaimChoice
  htu: ClaimChoice
  iat: ClaimChoice
  jti: ClaimChoice
  nonce: ClaimChoice
  ath: ClaimChoice
  extra: Record<string, unknown> | null
  signed: boolean
}

export type DpopSpec = { kind: 'absent' } | { kind: 'raw'; value: string } | { kind: 'twice' } | ProofSpec

const claim = (wrong: fc.Arbitrary<unknown>, rightWeight = 6): fc.Arbitrary<ClaimChoice> =>
  fc.oneof(
    { weight: rightWeight, arbitrary: fc.constant({ use: 'right' as const }) },
    { weight: 1, arbitrary: fc.constant({ use: 'absent' as const }) },
    { weight: 2, arbitrary: wrong.map((value) => ({ use: 'value' as const, value })) },
  )

const JWK_GARBAGE: unknown[] = [
  'x',
  1,
  true,
  false,
  null,
  [],
  [1, 2],
  {},
  { kty: 'EC' },
  { kty: 'EC', crv: 'P-256', x: '!!!', y: '???' },
  { kty: 'EC', crv: 'P-256', x: 'AAAA', y: 'AAAA' },
  { kty: 'oct', k: 'c2VjcmV0' },
  { kty: 'RSA', n: 'garbage', e: 'AQAB' },
  { kty: 'OKP', crv: 'Ed25519', x: 'not-a-key' },
  { kty: 'EC', crv: 'secp256k1', x: 'AAAA', y: 'AAAA' },
  { kty: 1, crv: [], x: {}, y: null },
  { kty: 'EC', crv: 'P-256', x: 'A'.repeat(20_000), y: 'A' },
]

export const proofSpecArb: fc.Arbitrary<DpopSpec> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ kind: 'absent' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'twice' as const }) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(oddString, fc.array(fc.base64String({ maxLength: 60 }), { minLength: 1, maxLength: 4 }).map((p) => p.join('.')), fc.constantFrom('a'.repeat(12_000), 'e30.e30.', 'e30.e30.e30'))
      .map((value) => ({ kind: 'raw' as const, value })),
  },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('proof' as const),
      typ: fc.oneof({ weight: 6, arbitrary: fc.constant('dpop+jwt') }, { weight: 1, arbitrary: fc.constantFrom('JWT', 'DPOP+JWT', 'at+jwt', undefined) }, { weight: 1, arbitrary: wrongValue }),
      alg: fc.oneof({ weight: 6, arbitrary: fc.constant('ES256') }, { weight: 1, arbitrary: fc.constantFrom('none', 'HS256', 'ES256K', 'RS256', undefined) }, { weight: 1, arbitrary: wrongValue }),
      jwk: fc.oneof(
        { weight: 5, arbitrary: fc.constant({ use: 'own' as const }) },
        { weight: 1, arbitrary: fc.constant({ use: 'other' as const }) },
        { weight: 1, arbitrary: fc.constant({ use: 'private' as const }) },
        { weight: 3, arbitrary: fc.oneof(fc.constantFrom(...JWK_GARBAGE), wrongValue).map((value) => ({ use: 'value' as const, value })) },
      ),
      htm: claim(fc.constantFrom('GET', 'post', 'PUT', '', 1)),
      htu: claim(fc.oneof(fc.constantFrom('http://127.0.0.1:1/xrpc/x', 'not a url', 'javascript:x', ''), fc.webUrl(), wrongValue)),
      iat: claim(fc.oneof(fc.integer({ min: -100_000, max: 100_000 }).map((d) => now() + d), fc.constantFrom('now', 1e300, -1, null, 1.5))),
      jti: claim(fc.oneof(fc.constantFrom('', 'x'.repeat(257), 'x'.repeat(256)), wrongValue)),
      nonce: claim(fc.oneof(fc.constantFrom('', 'stale', 'x'.repeat(5000)), wrongValue)),
      ath: claim(fc.oneof(fc.constantFrom('', 'AAAA'), wrongValue)),
      extra: fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.dictionary(oddString, wrongValue, { maxKeys: 3 }) }),
      signed: fc.oneof({ weight: 6, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    }),
  },
)

export interface ProofContext {
  key: ProofKey
  otherKey: ProofKey
  htm: string
  htu: string
  nonce?: string
  accessToken?: string
}

const sha256b64 = async (s: string) => Buffer.from(await webcrypto.subtle.digest('SHA-256', new TextEncoder().encode(s))).toString('base64url')

/** The `DPoP` header value(s) a DpopSpec describes (undefined: no header). */
export async function materializeProof(spec: DpopSpec, ctx: ProofContext): Promise<string | string[] | undefined> {
  switch (spec.kind) {
    case 'absent':
      return undefined
    case 'raw':
      return spec.value
    case 'twice': {
      const good = await materializeProof(GOOD_PROOF, ctx)
      return [good as string, good as string]
    }
    case 'proof':
      break
  }
  const jwk = spec.jwk.use === 'own' ? ctx.key.jwk : spec.jwk.use === 'other' ? ctx.otherKey.jwk : spec.jwk.use === 'private' ? ctx.key.privateJwk : spec.jwk.value
  const header: Record<string, unknown> = { typ: spec.typ, alg: spec.alg, jwk }
  const right: Record<string, unknown> = {
    htm: ctx.htm,
    htu: ctx.htu,
    iat: now(),
    jti: webcrypto.randomUUID(),
    nonce: ctx.nonce,
    ath: ctx.accessToken === undefined ? undefined : await sha256b64(ctx.accessToken),
  }
  const claims: Record<string, unknown> = { ...(spec.extra ?? {}) }
  for (const name of ['htm', 'htu', 'iat', 'jti', 'nonce', 'ath'] as const) {
    const choice = spec[name]
    if (choice.use === 'right') claims[name] = right[name]
    else if (choice.use === 'value') claims[name] = choice.value
  }
  const signingInput = `${b64(header)}.${b64(claims)}`
  if (!spec.signed) return `${signingInput}.${b64('not a signature')}`
  const sig = await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, ctx.key.privateKey, Buffer.from(signingInput))
  return `${signingInput}.${Buffer.from(sig).toString('base64url')}`
}

/** A proof right in every way, for requests whose other parts are fuzzed. */
export const GOOD_PROOF: ProofSpec = {
  kind: 'proof',
  typ: 'dpop+jwt',
  alg: 'ES256',
  jwk: { use: 'own' },
  htm: { use: 'right' },
  htu: { use: 'right' },
  iat: { use: 'right' },
  jti: { use: 'right' },
  nonce: { use: 'right' },
  ath: { use: 'right' },
  extra: null,
  signed: true,
}
