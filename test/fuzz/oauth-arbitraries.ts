import crypto from 'node:crypto'
import fc from 'fast-check'
import { oddString } from './lexicon-arbitraries.js'
import { malformedBodyArb, type BodySpec } from './envelope-arbitraries.js'

/**
 * Hostile input for the group sign-in (issue 22): form bodies for the pushed
 * authorization request endpoint (`/oauth/par`) and for the sign-in form where a person
 * types their handle (`/oauth/authorize/sign-in`).
 *
 * None of it may make the host call out past this machine: client IDs are development
 * IDs or https URLs the host's guard refuses before any look-up (IP literals,
 * `localhost`, reserved names such as `.invalid`, `example.com`); typed handles resolve
 * at the suite's own PLC (the fuzz host's `--handle-resolver`), and typed did:webs name
 * only addresses the guard refuses before connecting. A typed DID that does resolve (a
 * group's, whose PDS is the host itself) makes the host sign in at itself, on loopback.
 */

/** The development client the suite signs in as: a loopback redirect, only `atproto`. */
export const FUZZ_CLIENT_ID = `http://localhost?redirect_uri=${encodeURIComponent('http://127.0.0.1/callback')}&scope=atproto`
export const FUZZ_REDIRECT_URI = 'http://127.0.0.1:4321/callback'

/** A form field: absent, one value, or given twice (a form may repeat a name). */
export type FieldSpec = { kind: 'absent' } | { kind: 'one'; value: string } | { kind: 'twice'; values: [string, string] }

/** A form body as sent: fields in order (url-encoded), the same as JSON, or raw garbage. */
export type FormBodySpec = { form: [string, string][] } | { jsonForm: Record<string, unknown> } | { malformed: BodySpec }

/** A field that is mostly `right`, sometimes a listed wrong value, odd text, absent or repeated. */
function field(right: fc.Arbitrary<string>, wrong: string[] = []): fc.Arbitrary<FieldSpec> {
  return fc.oneof(
    // Mostly right: a case then has one or two wrong fields, and a fair share get all the way through.
    { weight: 40, arbitrary: right.map((value) => ({ kind: 'one' as const, value })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'absent' as const }) },
    { weight: 2, arbitrary: (wrong.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...wrong) }, { weight: 1, arbitrary: oddString }) : oddString).map((value) => ({ kind: 'one' as const, value })) },
    { weight: 1, arbitrary: fc.tuple(right, oddString).map(([a, b]) => ({ kind: 'twice' as const, values: [a, b] as [string, string] })) },
  )
}

const codeChallenge = fc.constant(null).map(() => crypto.randomBytes(32).toString('base64url'))

/** Client IDs the host must refuse without fetching anything (or the suite's own, mostly). */
const CLIENT_IDS_REFUSED_OFFLINE = [
  'http://localhost',
  'http://localhost?redirect_uri=javascript%3Aalert(1)',
  `http://localhost?redirect_uri=${encodeURIComponent('https://evil.invalid/cb')}&scope=atproto`,
  'http://localhost/client.json',
  'https://fuzz.invalid/client-metadata.json',
  'https://127.0.0.1/client-metadata.json',
  'https://localhost/client-metadata.json',
  'https://[::1]/client-metadata.json',
  'https://10.0.0.1/client-metadata.json',
  'https://169.254.169.254/latest/meta-data',
  'https://example.com/client-metadata.json',
  'https://app.fuzz.test:8443/client-metadata.json',
  'http://fuzz.test/client-metadata.json',
  'did:web:fuzz.invalid',
  '',
]

/** The fields of a pushed authorization request, each now and then wrong. */
export function parFieldsArb(groups: { did: string; handle: string }[]): fc.Arbitrary<Record<string, FieldSpec>> {
  const groupHints = groups.flatMap((g) => [g.handle, g.did, `@${g.handle}`, g.handle.toUpperCase()])
  return fc.record({
    client_id: field(fc.constant(FUZZ_CLIENT_ID), CLIENT_IDS_REFUSED_OFFLINE),
    response_type: field(fc.constant('code'), ['token', 'code id_token', 'none', 'CODE', '']),
    redirect_uri: field(fc.constantFrom(FUZZ_REDIRECT_URI, 'http://127.0.0.1/callback', 'http://[::1]:4321/callback'), [
      'https://evil.invalid/callback',
      'javascript:alert(1)',
      'http://127.0.0.1:4321/callback#x',
      'http://localhost:4321/callback',
      'com.example.app:/callback',
      'data:text/html,x',
    ]),
    scope: field(fc.constant('atproto'), ['', 'transition:generic', 'atproto transition:generic', 'atproto atproto', 'openid', ' atproto ']),
    code_challenge: field(codeChallenge, ['', 'short', 'A'.repeat(129), '!'.repeat(43)]),
    code_challenge_method: field(fc.constant('S256'), ['plain', 's256', '']),
    login_hint: field(fc.constantFrom(...groupHints), ['did:plc:aaaaaaaaaaaaaaaaaaaaaaaa', 'nobody.groups.test', 'alice.bsky.social', 'did:web:localhost%3A1', '@', '']),
    state: fc.oneof(fc.constant({ kind: 'absent' as const }), field(fc.constantFrom('app-state', 'x'.repeat(2048)))),
    response_mode: fc.oneof({ weight: 3, arbitrary: fc.constant({ kind: 'absent' as const }) }, { weight: 1, arbitrary: field(fc.constantFrom('query', 'fragment'), ['form_post', 'QUERY']) }),
    dpop_jkt: fc.oneof({ weight: 6, arbitrary: fc.constant({ kind: 'absent' as const }) }, { weight: 1, arbitrary: field(fc.constant('not-the-key-thumbprint')) }),
    request: fc.oneof({ weight: 30, arbitrary: fc.constant({ kind: 'absent' as const }) }, { weight: 1, arbitrary: field(fc.constant('eyJhbGciOiJub25lIn0.e30.')) }),
    request_uri: fc.oneof({ weight: 30, arbitrary: fc.constant({ kind: 'absent' as const }) }, { weight: 1, arbitrary: field(fc.constant('urn:ietf:params:oauth:request_uri:x')) }),
  })
}

/** Fields nobody asked for, some with the names prototype pollution tries. */
export const extraFieldsArb: fc.Arbitrary<[string, string][]> = fc.oneof(
  { weight: 10, arbitrary: fc.constant([] as [string, string][]) },
  { weight: 1, arbitrary: fc.array(fc.tuple(fc.oneof(oddString, fc.constantFrom('__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'x[y]', 'a.b')), oddString), { maxLength: 4 }) },
  // Past the host's parameterLimit (50 for PAR, 20 for the pages).
  { weight: 1, arbitrary: fc.integer({ min: 20, max: 80 }).map((n) => Array.from({ length: n }, (_, i) => [`f${i}`, 'x'] as [string, string])) },
)

/** How the fields travel: as a form (mostly), the same as JSON, or as a body that is neither. */
export function formBodyArb(fields: fc.Arbitrary<Record<string, FieldSpec>>): fc.Arbitrary<FormBodySpec> {
  const entries = fc.tuple(fields, extraFieldsArb).map(([f, extra]) => [...fieldEntries(f), ...extra])
  return fc.oneof(
    { weight: 8, arbitrary: entries.map((form) => ({ form })) },
    { weight: 1, arbitrary: fields.map((f) => ({ jsonForm: jsonFields(f) })) },
    { weight: 1, arbitrary: malformedBodyArb.map((malformed) => ({ malformed })) },
  )
}

/** The fields as a JSON body: a repeated one as an array. */
function jsonFields(fields: Record<string, FieldSpec>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [name, f] of Object.entries(fields)) if (f.kind !== 'absent') out[name] = f.kind === 'one' ? f.value : f.values
  return out
}

function fieldEntries(fields: Record<string, FieldSpec>): [string, string][] {
  return Object.entries(fields).flatMap(([name, f]): [string, string][] => (f.kind === 'absent' ? [] : f.kind === 'one' ? [[name, f.value]] : f.values.map((v): [string, string] => [name, v])))
}

/** The content type a form body goes with: mostly the right one for it. */
export function formContentTypeArb(body: FormBodySpec): fc.Arbitrary<string | null> {
  const right = 'form' in body ? 'application/x-www-form-urlencoded' : 'application/json'
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant(right) },
    { weight: 1, arbitrary: fc.constantFrom(null, 'text/plain', 'application/x-www-form-urlencoded; charset=bogus', 'multipart/form-data; boundary=x', 'application/json', 'application/x-www-form-urlencoded') },
  )
}

export function formBodyBytes(body: FormBodySpec): Buffer | undefined {
  if ('form' in body) return Buffer.from(new URLSearchParams(body.form).toString())
  if ('jsonForm' in body) return Buffer.from(JSON.stringify(body.jsonForm))
  const m = body.malformed
  if (m === null) return undefined
  if ('json' in m) return Buffer.from(JSON.stringify(m.json) ?? 'undefined')
  if ('raw' in m) return Buffer.from(m.raw)
  if ('buffer' in m) return m.buffer
  return Buffer.from(m.bytes)
}

const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,12}[a-z0-9]$/)
/** Top-level names the guard refuses before any look-up (and that no DNS answers). */
const reservedTld = fc.constantFrom('test', 'invalid', 'example', 'localhost', 'local')

/**
 * What a person (or someone else) types as their handle: handles under reserved names
 * (resolved at the suite's PLC only), DIDs of every kind, did:webs naming this machine
 * or its network (`tripwirePort`: a port on loopback where a connection would show), and
 * odd text.
 */
export function typedHandleArb(opts: { tripwirePort: number; groupDids: string[]; personDids: string[] }): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.tuple(fc.array(label, { minLength: 1, maxLength: 3 }), reservedTld).map(([labels, tld]) => [...labels, tld].join('.')) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('', '@', ' ', '  @'), fc.constantFrom('alice.test', 'ALICE.TEST', 'open.groups.test', 'localhost', 'a.invalid')).map(([p, h]) => p + h) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        `did:web:localhost%3A${opts.tripwirePort}`,
        `did:web:127.0.0.1%3A${opts.tripwirePort}`,
        'did:web:localhost',
        'did:web:127.0.0.1',
        'did:web:[::1]',
        'did:web:10.0.0.1',
        'did:web:192.168.1.1',
        'did:web:169.254.169.254',
        'did:web:example.com',
        'did:web:fuzz.invalid',
        'did:web:fuzz.test%3A443',
        'did:web:fuzz.invalid:path:to',
        'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa',
        'did:plc:',
        'did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme',
        'did:',
        'did:web:',
        'https://127.0.0.1/',
        'http://localhost:1/',
      ),
    },
    { weight: 2, arbitrary: fc.constantFrom(...opts.personDids, ...opts.groupDids) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('did:web:', 'did:plc:', 'did:'), label, reservedTld).map(([p, l, t]) => `${p}${l}.${t}`) },
    { weight: 2, arbitrary: oddString },
  )
}

/** The cookie the sign-in form comes with: the browser's own (mostly), none, or someone else's. */
export const cookieChoiceArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant('right' as const) },
  { weight: 1, arbitrary: fc.constantFrom('absent' as const, 'other' as const, 'garbage' as const) },
)
