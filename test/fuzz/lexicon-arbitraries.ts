import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'

/**
 * Inputs for every method in `lexicons/`, built from the JSON lexicons at test time, so
 * a method or field added later is fuzzed without touching this file. Values are mostly
 * plausible (the formats, ranges and known values the schema names, and the DIDs,
 * spaces and roles that exist on the host under test, so calls get past validation
 * into the handlers), with a share of mutations: wrong types, nulls, missing required
 * fields, extra fields, huge and odd unicode strings.
 */

const LEXICON_DIR = path.resolve(import.meta.dirname, '../../lexicons')

/** A lexicon schema node, as loosely as the JSON allows (we only read it). */
export type LexNode = Record<string, unknown> & { type?: string }
export interface LexDoc {
  id: string
  defs: Record<string, LexNode>
}

export interface LexMethod {
  nsid: string
  kind: 'query' | 'procedure'
  /** The `params` object of the method (queries and procedures may both have one). */
  params?: LexNode
  /** The JSON input schema of a procedure. */
  input?: LexNode
}

export function readLexicons(dir = LEXICON_DIR): Map<string, LexDoc> {
  const docs = new Map<string, LexDoc>()
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name)
      if (entry.isDirectory()) walk(p)
      else if (entry.name.endsWith('.json')) {
        const doc = JSON.parse(fs.readFileSync(p, 'utf8')) as LexDoc
        docs.set(doc.id, doc)
      }
    }
  }
  walk(dir)
  return docs
}

export function methodsOf(docs: Map<string, LexDoc>): LexMethod[] {
  const out: LexMethod[] = []
  for (const doc of docs.values()) {
    const main = doc.defs.main
    if (main?.type !== 'query' && main?.type !== 'procedure') continue
    const input = main.input as { schema?: LexNode } | undefined
    out.push({ nsid: doc.id, kind: main.type, params: main.parameters as LexNode | undefined, input: input?.schema })
  }
  return out.sort((a, b) => a.nsid.localeCompare(b.nsid))
}

/**
 * The subscriptions (WebSocket streams), as methods opened with a GET: their parameters
 * are fuzzed like a query's, on the upgrade request.
 */
export function subscriptionsOf(docs: Map<string, LexDoc>): LexMethod[] {
  return [...docs.values()]
    .filter((doc) => doc.defs.main?.type === 'subscription')
    .map((doc) => ({ nsid: doc.id, kind: 'query' as const, params: doc.defs.main!.parameters as LexNode | undefined }))
    .sort((a, b) => a.nsid.localeCompare(b.nsid))
}

/** Record types (for `record` fields and collections): the lexicons of type `record`. */
export function recordTypesOf(docs: Map<string, LexDoc>): string[] {
  return [...docs.values()].filter((d) => d.defs.main?.type === 'record').map((d) => d.id)
}

/** What exists on the host under test: fuzzed values lean on it to reach deep code. */
export interface FuzzWorld {
  groupDids: string[]
  personDids: string[]
  /** Other DIDs worth naming: the host's own, a group that no one should touch, … */
  otherDids: string[]
  handles: string[]
  /** Space addresses, at://<group>/space/<type>/<skey>. */
  spaces: string[]
  roles: string[]
}

// ---------------------------------------------------------------------------------
// Strings

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567'
const randomPlcDid = fc.string({ unit: fc.constantFrom(...BASE32), minLength: 24, maxLength: 24 }).map((s) => `did:plc:${s}`)

/** Odd strings that have broken parsers, databases and encoders elsewhere. */
export const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83d',
  '\ufeff',
  '\u202e',
  '🏳️‍🌈',
  'Z͑ͫ̓ͪ̂ͫ̽͏̴̙̤̞͉͚̯̞̠͍',
  '../../../../etc/passwd',
  '%00',
  '%zz',
  '${7*7}',
  "' OR 1=1 --",
  '"; DROP TABLE "group"; --',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '*',
  'self',
  'at://',
  'did:',
  'did:plc:',
  'did:web:',
  'pending:',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
  '0x10',
  '[]',
  '{}',
  '\\',
  '\n\r\t',
  'a'.repeat(65),
  'é'.repeat(33),
]

/** Strings of awkward length: just short of limits, just past them, far past them. */
const hugeString = fc
  .tuple(fc.constantFrom(1_000, 3_001, 10_000, 30_001, 70_000, 300_000), fc.constantFrom('x', 'é', '😀', '\u0301', '\u0000'))
  .map(([n, ch]) => ch.repeat(Math.ceil(n / ch.length)))

export const oddString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }) },
  { weight: 3, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 1, arbitrary: hugeString },
)

const nsidSegment = fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/)
const randomNsid = fc.array(nsidSegment, { minLength: 3, maxLength: 4 }).map((s) => s.join('.'))
const tid = fc.bigInt({ min: 0n, max: (1n << 63n) - 1n }).map((n) => {
  const S32 = '234567abcdefghijklmnopqrstuvwxyz'
  let out = ''
  for (let i = 0; i < 13; i++) {
    out = S32[Number(n & 31n)]! + out
    n >>= 5n
  }
  return out
})
const datetime = fc.oneof(
  fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom('0000-01-01T00:00:00Z', '9999-12-31T23:59:60Z', '2026-02-30T00:00:00Z', '2026-01-01T00:00:00', '2026-01-01', '2026-01-01T00:00:00+25:00', '-002026-01-01T00:00:00Z', 'yesterday'),
)
const CIDS = ['bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm', 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku', 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG']

/** Values for one string-format, mostly valid, sometimes near misses. */
function formatArb(format: string, world: FuzzWorld, recordTypes: string[]): fc.Arbitrary<string> {
  const anyDid = fc.constantFrom(...world.groupDids, ...world.personDids, ...world.otherDids)
  switch (format) {
    case 'did':
      return fc.oneof(
        { weight: 6, arbitrary: anyDid },
        { weight: 2, arbitrary: randomPlcDid },
        // did:web only on names that cannot reach the internet from a test run.
        { weight: 1, arbitrary: fc.constantFrom('did:web:fuzz.invalid', 'did:web:localhost%3A1', 'did:web:127.0.0.1', 'did:key:zQ3shfuzz', 'did:example:123', 'DID:PLC:ABC') },
      )
    case 'handle':
      return fc.oneof(
        fc.constantFrom(...world.handles),
        fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/).map((l) => `${l}.groups.test`),
        fc.constantFrom('something.bsky.social', 'localhost', 'a.invalid', '-bad-.test', 'x'.repeat(254) + '.test', 'handle.invalid'),
      )
    case 'nsid':
      return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...recordTypes) }, { weight: 1, arbitrary: randomNsid })
    case 'record-key':
      return fc.oneof(tid, fc.constantFrom('self', '.', '..', 'a:b', 'x'.repeat(512), 'meta:self', 'members:self'), fc.stringMatching(/^[A-Za-z0-9._:~-]{1,20}$/))
    case 'datetime':
      return datetime
    case 'cid':
      return fc.oneof(fc.constantFrom(...CIDS), fc.stringMatching(/^bafy[a-z2-7]{10,60}$/))
    case 'at-uri':
      return atUri(world, recordTypes)
    case 'uri':
      return fc.oneof(fc.webUrl(), fc.constantFrom('javascript:alert(1)', 'file:///etc/passwd', 'http://127.0.0.1:1/'))
    default:
      return fc.string({ maxLength: 40 })
  }
}

function atUri(world: FuzzWorld, recordTypes: string[]): fc.Arbitrary<string> {
  const did = fc.constantFrom(...world.groupDids, ...world.personDids)
  return fc.oneof(
    fc.tuple(did, fc.constantFrom(...recordTypes), tid).map(([d, c, r]) => `at://${d}/${c}/${r}`),
    fc.tuple(fc.constantFrom(...world.spaces), did, fc.constantFrom(...recordTypes), tid).map(([s, d, c, r]) => `${s}/${d}/${c}/${r}`),
    fc.constantFrom(...world.spaces),
    fc.constantFrom('at://', 'at:///', 'at://did:plc:x/../..', 'at://did:plc:x/a/b/c/d/e/f/g'),
  )
}

/** Names the host gives meaning to: a `space` field wants a space address, and so on. */
function hintedString(name: string, world: FuzzWorld, recordTypes: string[]): fc.Arbitrary<string> | undefined {
  switch (name) {
    case 'group':
      return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...world.groupDids) }, { weight: 1, arbitrary: formatArb('did', world, recordTypes) })
    case 'repo':
      // The group for group writes, a member for member writes.
      return fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...world.groupDids) },
        { weight: 2, arbitrary: fc.constantFrom(...world.personDids) },
        { weight: 1, arbitrary: formatArb('did', world, recordTypes) },
      )
    case 'space':
    case 'event':
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...world.spaces) },
        { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...world.groupDids), fc.stringMatching(/^[a-z.]{1,30}$/), fc.constantFrom('self', 'x')).map(([g, t, k]) => `at://${g}/space/${t}/${k}`) },
        { weight: 1, arbitrary: atUri(world, recordTypes) },
      )
    case 'role':
      return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...world.roles) }, { weight: 1, arbitrary: oddString })
    case 'type':
      return fc.constantFrom('community.lexicon.calendar', 'example.scratch', 'members', 'meta', 'invites', 'x', 'a.b.c.d.e.f.g')
    case 'skey':
      return fc.constantFrom('self', 'two', '', 'a/b', 'x'.repeat(512))
    case 'subject':
    case 'uri':
      return atUri(world, recordTypes)
    case 'cursor':
      return fc.oneof(fc.nat().map(String), fc.constantFrom('-1', '0', '1.5', '9'.repeat(40), 'abc', 'eyJ4IjoxfQ'), fc.base64String({ maxLength: 40 }))
    case 'q':
      return fc.oneof(fc.constantFrom(...world.personDids), oddString)
    default:
      return undefined
  }
}

// ---------------------------------------------------------------------------------
// Schemas

export interface ArbContext {
  docs: Map<string, LexDoc>
  world: FuzzWorld
  recordTypes: string[]
  /** How often a field is replaced by a wrong-typed value, out of 100. */
  mutatePercent: number
}

/** `arb` in `percent` of cases, null otherwise. */
export const sometimes = <T>(arb: fc.Arbitrary<T>, percent: number): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: 100 - percent, arbitrary: fc.constant(null) }, { weight: percent, arbitrary: arb })

/** Anything JSON can hold, for wrong types (and `unknown` fields). */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 2 ** 53, -(2 ** 63), 1e308, 0.5),
  oddString,
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 4 }),
  fc.dictionary(oddString, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 }),
  fc.constant({ $type: 'blob', ref: { $link: 'bafyx' }, mimeType: 'image/png', size: -1 }),
  fc.constant({ $bytes: '!!!' }),
  fc.constant({ $link: 'not-a-cid' }),
)

function resolveRef(ref: string, currentId: string, docs: Map<string, LexDoc>): { node: LexNode; docId: string } | undefined {
  const [id, name] = ref.startsWith('#') ? [currentId, ref.slice(1)] : (ref.split('#') as [string, string?])
  const doc = docs.get(id)
  const node = doc?.defs[name ?? 'main']
  return node && doc ? { node, docId: doc.id } : undefined
}

/**
 * A plausible value for `node` (mutated now and then); `name` is the property it goes
 * in, for hints. Depth guards against runaway recursion through refs.
 */
export function valueArb(node: LexNode, ctx: ArbContext, docId: string, name = '', depth = 0): fc.Arbitrary<unknown> {
  const plausible = plausibleArb(node, ctx, docId, name, depth)
  if (ctx.mutatePercent <= 0) return plausible
  return fc.oneof({ weight: 100 - ctx.mutatePercent, arbitrary: plausible }, { weight: ctx.mutatePercent, arbitrary: wrongValue })
}

function plausibleArb(node: LexNode, ctx: ArbContext, docId: string, name: string, depth: number): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant(null)
  switch (node.type) {
    case 'string':
      return stringArb(node, ctx, name)
    case 'integer': {
      const min = typeof node.minimum === 'number' ? node.minimum : -1000
      const max = typeof node.maximum === 'number' ? node.maximum : 1000
      return fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min, max }) },
        { weight: 1, arbitrary: fc.constantFrom(min - 1, max + 1, 0, -1, 2 ** 31, Number.MAX_SAFE_INTEGER + 2, 1.5) },
      )
    }
    case 'boolean':
      return fc.boolean()
    case 'array': {
      const items = node.items as LexNode
      const maxLength = typeof node.maxLength === 'number' ? node.maxLength : 6
      return fc.oneof(
        { weight: 8, arbitrary: fc.array(valueArb(items, ctx, docId, name, depth + 1), { maxLength: Math.min(maxLength, 6) }) },
        { weight: 1, arbitrary: fc.array(valueArb(items, ctx, docId, name, depth + 1), { minLength: 50, maxLength: 300 }) },
      )
    }
    case 'ref': {
      const target = resolveRef(node.ref as string, docId, ctx.docs)
      return target ? valueArb(target.node, ctx, target.docId, name, depth + 1) : wrongValue
    }
    case 'union': {
      const refs = (node.refs as string[]).map((ref) => {
        const target = resolveRef(ref, docId, ctx.docs)
        const full = ref.startsWith('#') ? `${docId}${ref}` : ref
        if (!target) return fc.constant({ $type: full })
        return fc
          .tuple(plausibleArb(target.node, ctx, target.docId, name, depth + 1), fc.constantFrom(full, full, full.replace('#', '#x'), undefined))
          .map(([v, $type]) => (v && typeof v === 'object' && !Array.isArray(v) ? { $type, ...v } : v))
      })
      return fc.oneof(...refs)
    }
    case 'object':
    case 'params':
      return objectArb(node, ctx, docId, depth)
    case 'unknown':
      return name === 'record' ? recordArb(ctx, depth) : fc.jsonValue({ maxDepth: 3 })
    case 'blob':
      return fc.oneof(
        fc.constantFrom(...CIDS).map(($link) => ({ $type: 'blob', ref: { $link }, mimeType: 'image/png', size: 1000 })),
        fc.record({ $type: fc.constant('blob'), ref: wrongValue, mimeType: oddString, size: fc.integer() }),
      )
    case 'bytes':
      return fc.base64String({ maxLength: 40 }).map(($bytes) => ({ $bytes }))
    case 'cid-link':
      return fc.constantFrom(...CIDS).map(($link) => ({ $link }))
    default:
      return wrongValue
  }
}

function stringArb(node: LexNode, ctx: ArbContext, name: string): fc.Arbitrary<string> {
  const choices: fc.WeightedArbitrary<string>[] = []
  const known = [...((node.knownValues as string[] | undefined) ?? []), ...((node.enum as string[] | undefined) ?? [])]
  const hinted = hintedString(name, ctx.world, ctx.recordTypes)
  if (typeof node.const === 'string') choices.push({ weight: 1, arbitrary: fc.constant(node.const) })
  else if (known.length) choices.push({ weight: 1, arbitrary: fc.constantFrom(...known) })
  else if (hinted) choices.push({ weight: 1, arbitrary: hinted })
  else if (typeof node.format === 'string') choices.push({ weight: 1, arbitrary: formatArb(node.format, ctx.world, ctx.recordTypes) })
  const maxLength = typeof node.maxLength === 'number' ? node.maxLength : 200
  // A field with a meaning mostly gets a plausible value (so calls reach the handlers);
  // a free-text one mostly any text. Then the limits: at them, just past them; odd text.
  const meaningful = choices.length > 0
  choices.push({ weight: meaningful ? 1 : 24, arbitrary: fc.string({ unit: 'grapheme', maxLength: Math.min(maxLength, 60) }) })
  choices.push({ weight: meaningful ? 1 : 3, arbitrary: fc.constantFrom('a'.repeat(maxLength), 'a'.repeat(maxLength + 1), '😀'.repeat(Math.ceil(maxLength / 4) + 1)) })
  choices.push({ weight: meaningful ? 1 : 4, arbitrary: oddString })
  if (meaningful) choices[0] = { ...choices[0]!, weight: 30 }
  return fc.oneof(...choices)
}

function objectArb(node: LexNode, ctx: ArbContext, docId: string, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = (node.properties as Record<string, LexNode> | undefined) ?? {}
  const required = new Set((node.required as string[] | undefined) ?? [])
  const model: Record<string, fc.Arbitrary<unknown>> = {}
  for (const [key, schema] of Object.entries(props)) model[key] = valueArb(schema, ctx, docId, key, depth + 1)
  const base = fc.record(model, { requiredKeys: [...required].filter((k) => k in model) })
  if (ctx.mutatePercent <= 0) return base
  const keys = Object.keys(props)
  return fc
    .tuple(
      base,
      // Now and then: drop a field (required ones too), or add extra ones.
      sometimes(fc.constantFrom(...(keys.length ? keys : ['x'])), ctx.mutatePercent),
      sometimes(fc.dictionary(fc.oneof(fc.constantFrom('__proto__', 'constructor', '$type', 'extra', ''), oddString), wrongValue, { minKeys: 1, maxKeys: 3 }), ctx.mutatePercent),
    )
    .map(([value, drop, extra]) => {
      const out: Record<string, unknown> = { ...value }
      if (drop !== null) delete out[drop]
      // defineProperty, not assignment, so a "__proto__" key is an own JSON property.
      for (const [k, v] of Object.entries(extra ?? {})) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true })
      return out
    })
}

/** A `record` field: a record of one of the lexicons' record types, or junk. */
function recordArb(ctx: ArbContext, depth: number): fc.Arbitrary<unknown> {
  const typed = ctx.recordTypes.map((type) => {
    const doc = ctx.docs.get(type)!
    const schema = doc.defs.main!.record as LexNode
    return fc
      .tuple(objectArb(schema, ctx, type, depth + 1), fc.constantFrom(type, type, type, 'example.other', undefined))
      .map(([value, $type]) => ({ $type, ...value }))
  })
  return fc.oneof({ weight: 8, arbitrary: fc.oneof(...typed) }, { weight: 1, arbitrary: wrongValue })
}

/** Query parameters as strings (what a URL can carry), with repeated and odd ones. */
export function paramsArb(method: LexMethod, ctx: ArbContext): fc.Arbitrary<[string, string][]> {
  const params = method.params ? (objectArb(method.params, ctx, method.nsid, 0) as fc.Arbitrary<Record<string, unknown>>) : fc.constant({})
  return fc
    .tuple(
      params,
      sometimes(fc.array(fc.tuple(fc.oneof(fc.constantFrom('group', 'limit', 'cursor', 'a[b]', 'group[]', '__proto__', ''), oddString), oddString), { minLength: 1, maxLength: 3 }), Math.min(25, ctx.mutatePercent * 2)),
      fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    )
    .map(([values, extra, repeat]) => {
      const pairs: [string, string][] = []
      for (const [k, v] of Object.entries(values)) {
        // A URL longer than Node reads (16 KiB of request head) tests Node, not the host.
        for (const item of Array.isArray(v) ? v : [v]) pairs.push([k, (typeof item === 'string' ? item : (JSON.stringify(item) ?? 'undefined')).slice(0, 1500)])
      }
      // A parameter given twice: the schema allows one.
      if (repeat && pairs.length) pairs.push(pairs[0]!)
      return [...pairs, ...(extra ?? [])]
    })
}

/** A procedure's JSON input, plausible with mutations. */
export function bodyArb(method: LexMethod, ctx: ArbContext): fc.Arbitrary<unknown> {
  if (!method.input) return fc.oneof(fc.constant(undefined), fc.constant({}), wrongValue)
  return fc.oneof({ weight: 12, arbitrary: objectArb(method.input, ctx, method.nsid, 0) }, { weight: 1, arbitrary: wrongValue })
}
