import fc from 'fast-check'
import { oddString, wrongValue } from './lexicon-arbitraries.js'

/**
 * The HTTP around an XRPC call, wrong in the ways clients and attackers get it wrong:
 * methods, content types and encodings, malformed JSON bodies, odd query strings.
 */

/** A request body: JSON of a value, raw text, or raw bytes. */
export type BodySpec = { json: unknown } | { raw: string } | { bytes: number[] } | { buffer: Buffer } | null

export const httpMethodArb = (right: 'GET' | 'POST') =>
  fc.oneof({ weight: 8, arbitrary: fc.constant(right) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD') })

export const contentTypeArb: fc.Arbitrary<string | null> = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      null,
      'application/json; charset=utf-8',
      'application/json; charset=utf-16',
      'application/json; charset=bogus',
      'APPLICATION/JSON',
      'application/json, text/plain',
      'text/plain',
      'text/html',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'multipart/form-data',
      'application/octet-stream',
      'application/cbor',
      'application/vnd.ipld.car',
      'image/png',
      '*/*',
      '',
      ';',
      'application/json; boundary',
      'application/ld+json',
    ),
  },
  { weight: 1, arbitrary: oddString },
)

export const contentEncodingArb: fc.Arbitrary<string | null> = fc.oneof(
  { weight: 12, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'compress', 'gzip, gzip', 'bogus', 'zstd', '') },
)

/** Bodies that are not the JSON they claim to be. */
export const malformedBodyArb: fc.Arbitrary<BodySpec> = fc.oneof(
  fc.constantFrom<BodySpec>(
    null,
    { raw: '' },
    { raw: '{' },
    { raw: '{"group":' },
    { raw: '{"group": "did:plc:x",}' },
    { raw: "{'group': 1}" },
    { raw: 'null' },
    { raw: 'true' },
    { raw: '0' },
    { raw: '"string"' },
    { raw: '[]' },
    { raw: '\ufeff{}' },
    { raw: '{"__proto__": {"isAdmin": true}}' },
    { raw: '{"constructor": {"prototype": {"x": 1}}}' },
    { raw: '{"a": 1e99999}' },
    { raw: '{"a": -0}' },
    { raw: '{"a": "\\ud800"}' },
    { raw: '{"a": "\\u0000"}' },
    { raw: '{"a":1,"a":2}' },
    { raw: 'NaN' },
    { raw: '{"$type": "blob", "ref": {"$link": "x"}}' },
    { raw: '{"record": {"$bytes": "!!!"}}' },
    { raw: '{"record": {"$link": "bafy"}}' },
    { bytes: [0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00] },
    { bytes: [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d] },
    { bytes: [0x1f, 0x8b, 0x08, 0x00, 0x00] },
    { bytes: [0xa1, 0x61, 0x61, 0x01] },
  ),
  fc.integer({ min: 1, max: 12_000 }).map((depth) => ({ raw: '['.repeat(depth) + ']'.repeat(depth) })),
  fc.integer({ min: 1, max: 5_000 }).map((depth) => ({ raw: '{"a":'.repeat(depth) + '1' + '}'.repeat(depth) })),
  fc.constantFrom(200_000, 262_144, 300_000, 2_000_000).map((n) => ({ raw: JSON.stringify({ group: 'x'.repeat(n) }) })),
  fc.uint8Array({ maxLength: 64 }).map((b) => ({ bytes: [...b] })),
  oddString.map((raw) => ({ raw })),
  wrongValue.map((json) => ({ json })),
)

/** Query strings written by hand: repeated, bracketed, badly escaped parameters. */
export const rawQueryArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    '?',
    '??',
    '?&&&',
    '?=',
    '?group',
    '?group=',
    '?group=%',
    '?group=%zz',
    '?group=%00',
    '?group=%ff%fe',
    '?group=%ED%A0%80',
    '?group[]=did:plc:x',
    '?group[a]=1',
    '?group[__proto__][x]=1',
    '?__proto__[x]=1',
    '?constructor[prototype][x]=1',
    '?limit=1&limit=2',
    '?limit=-1',
    '?limit=1e3',
    '?limit=0x10',
    '?limit=%20',
    '?limit=999999999999999999999',
    '?cursor=%F0%9F%98%80',
    '?a=1;b=2',
    '?group=did:plc:x#frag',
    `?${'a=1&'.repeat(2000)}`,
    `?group=${'x'.repeat(8000)}`,
  ),
  fc
    .array(fc.tuple(fc.stringMatching(/^[a-zA-Z[\]_%.0-9]{0,12}$/), fc.stringMatching(/^[a-zA-Z0-9%:._~[\]-]{0,30}$/)), { maxLength: 6 })
    .map((pairs) => '?' + pairs.map(([k, v]) => `${k}=${v}`).join('&')),
)

/** Headers any request may carry by accident or malice. */
export const extraHeadersArb: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 8, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, string>>(
      { 'x-forwarded-for': '1.2.3.4, 5.6.7.8' },
      { 'x-forwarded-proto': 'gopher' },
      { host: 'evil.invalid' },
      { 'atproto-proxy': 'did:web:fuzz.invalid#groups' },
      { 'atproto-accept-labelers': 'did:plc:x;redact' },
      { accept: 'text/html' },
      { 'accept-encoding': 'br, gzip, deflate, zstd' },
      { 'x-request-id': 'x'.repeat(500) },
      { cookie: 'a=b' },
      { origin: 'http://evil.invalid' },
    ),
  },
)

/**
 * Paths: the host's own (`_health`, the lexicon methods with junk appended), unknown
 * NSIDs, and paths outside `/xrpc/` (escapes, traversal, doubled slashes).
 */
export function pathArb(nsids: string[]): fc.Arbitrary<string> {
  const segment = fc.stringMatching(/^[A-Za-z0-9._~%:-]{0,20}$/)
  return fc.oneof(
    fc.constantFrom('/', '/xrpc', '/xrpc/', '/xrpc/_health', '/xrpc/_health/', '//xrpc/_health', '/.well-known/atproto-did', '/.well-known/did.json', '/favicon.ico', '/xrpc/%', '/xrpc/%2e%2e%2f', '/xrpc/..', '/%2e%2e/%2e%2e/etc/passwd', `/${'a'.repeat(8000)}`),
    fc.tuple(fc.constantFrom(...nsids), fc.constantFrom('/', '/x', '%00', '%2F..', '.', '..', '?', '#', ';x', '%20', 'X')).map(([n, tail]) => `/xrpc/${n}${tail}`),
    fc.constantFrom(...nsids).map((n) => `/XRPC/${n.toUpperCase()}`),
    fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => `/xrpc/${parts.join('.')}`),
    fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => `/${parts.join('/')}`),
  )
}
