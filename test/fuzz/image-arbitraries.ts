import { gzipSync } from 'node:zlib'
import fc from 'fast-check'

/**
 * Image uploads as a hostile or careless client sends them (issue 35): real image
 * signatures with anything after them, signatures cut short, one type's bytes under
 * another's name, markup dressed as an image, bodies empty, compressed or past the
 * 1,000,000-byte limit. Described compactly and made into bytes only when sent, so
 * fast-check never holds (or shrinks) a megabyte.
 */

const SIGNATURES = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpeg: [0xff, 0xd8, 0xff, 0xe0],
  gif: [...Buffer.from('GIF89a')],
  webp: [...Buffer.from('RIFF'), 0x24, 0, 0, 0, ...Buffer.from('WEBP')],
} as const
export type ImageKind = keyof typeof SIGNATURES

export type ImageBodySpec =
  | { kind: 'image'; type: ImageKind; tail: number; seed: number }
  | { kind: 'cut'; type: ImageKind; keep: number }
  | { kind: 'markup'; text: string }
  | { kind: 'noise'; length: number; seed: number }
  | { kind: 'oversized'; type: ImageKind }
  | { kind: 'empty' }

export interface ImageUploadBody {
  body: ImageBodySpec
  /** How the body travels: as is, gzip-compressed and said so, or said to be compressed and not. */
  encoding: 'none' | 'gzip' | 'gzip (a lie)'
}

const kindArb = fc.constantFrom<ImageKind>('png', 'jpeg', 'gif', 'webp')

export const imageBodyArb: fc.Arbitrary<ImageUploadBody> = fc.record({
  body: fc.oneof(
    { weight: 8, arbitrary: fc.record({ kind: fc.constant('image' as const), type: kindArb, tail: fc.nat(400), seed: fc.nat() }) },
    { weight: 2, arbitrary: kindArb.chain((type) => fc.record({ kind: fc.constant('cut' as const), type: fc.constant(type), keep: fc.integer({ min: 1, max: SIGNATURES[type].length - 1 }) })) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('markup' as const),
        text: fc.constantFrom('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', '<!doctype html><script>alert(1)</script>', 'GIF8<script>', '\u0089PNG', '{"$type":"blob"}'),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('noise' as const), length: fc.nat(600), seed: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('oversized' as const), type: kindArb }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'empty' as const }) },
  ),
  encoding: fc.oneof({ weight: 10, arbitrary: fc.constant('none' as const) }, { weight: 1, arbitrary: fc.constantFrom('gzip' as const, 'gzip (a lie)' as const) }),
})

/** What the client says the bytes are: mostly right, often wrong, sometimes nothing or nonsense. */
export const imageContentTypeArb: fc.Arbitrary<string | null> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('image/png', 'image/jpeg', 'image/gif', 'image/webp') },
  { weight: 1, arbitrary: fc.constantFrom(null, '*/*', 'image/svg+xml', 'text/html', 'application/octet-stream', 'IMAGE/PNG', 'image/png; charset=utf-8', 'image/', 'multipart/form-data; boundary=x') },
)

/** Deterministic filler bytes (a generated seed, not Math.random, so a failure replays). */
function filler(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length)
  let x = seed | 1
  for (let i = 0; i < length; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out[i] = x & 0xff
  }
  return out
}

/** The bytes a spec describes, before any content encoding. */
export function imageBytes(spec: ImageBodySpec): Buffer {
  switch (spec.kind) {
    case 'image':
      return Buffer.concat([Buffer.from(SIGNATURES[spec.type]), filler(spec.tail, spec.seed)])
    case 'cut':
      return Buffer.from(SIGNATURES[spec.type].slice(0, spec.keep))
    case 'markup':
      return Buffer.from(spec.text)
    case 'noise':
      return filler(spec.length, spec.seed)
    case 'oversized':
      return Buffer.concat([Buffer.from(SIGNATURES[spec.type]), Buffer.alloc(1_000_001)])
    case 'empty':
      return Buffer.alloc(0)
  }
}

/** The body as sent, and its `content-encoding` header (null: none). */
export function encodedImageBody(upload: ImageUploadBody): { bytes: Buffer; contentEncoding: string | null } {
  const raw = imageBytes(upload.body)
  if (upload.encoding === 'gzip') return { bytes: gzipSync(raw), contentEncoding: 'gzip' }
  if (upload.encoding === 'gzip (a lie)') return { bytes: raw, contentEncoding: 'gzip' }
  return { bytes: raw, contentEncoding: null }
}
