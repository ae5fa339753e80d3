import { describe, expect, it } from 'vitest'
import { imageTypeOf } from '../../src/shared/image-type'

const bytes = (...b: number[]) => new Uint8Array([...b, ...new Array(16).fill(0)])
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0))

describe('what an image’s first bytes say it is', () => {
  it.each([
    ['image/png', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)],
    ['image/jpeg', bytes(0xff, 0xd8, 0xff, 0xe0)],
    ['image/gif', bytes(...ascii('GIF89a'))],
    ['image/webp', bytes(...ascii('RIFF'), 1, 2, 3, 4, ...ascii('WEBP'))],
  ])('%s', (type, b) => expect(imageTypeOf(b)).toBe(type))

  it('anything else, whatever it claims, is not an image: SVG (it may run script), HTML, a WAVE file (RIFF but not WEBP), a PNG cut short', () => {
    expect(imageTypeOf(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))).toBeNull()
    expect(imageTypeOf(new TextEncoder().encode('<!doctype html>'))).toBeNull()
    expect(imageTypeOf(bytes(...ascii('RIFF'), 1, 2, 3, 4, ...ascii('WAVE')))).toBeNull()
    expect(imageTypeOf(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBeNull()
    expect(imageTypeOf(new Uint8Array())).toBeNull()
  })
})
