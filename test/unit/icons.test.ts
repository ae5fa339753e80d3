/**
 * The icons in build/ are committed renders of build/icon.svg (scripts/icons.ts), so
 * packaging needs no generation step. These tests fail when the SVG changed and the
 * renders were not made again, or a render was replaced by hand.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BUILD_DIR, ICO_SIZES, LINUX_SIZES, MANIFEST, SOURCE, renderPng, sha256, type IconManifest } from '../../scripts/icons.js'

const manifest: IconManifest = JSON.parse(readFileSync(MANIFEST, 'utf8'))
const STALE = 'run `node --import tsx scripts/icons.ts` and commit build/'

/** Width and height from a PNG's IHDR chunk. */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) })

describe('the committed icons', () => {
  it('were rendered from the current build/icon.svg', () => {
    expect(sha256(readFileSync(SOURCE)), STALE).toBe(manifest.source)
  })

  it('are the files the renders produced', () => {
    const expected = [...LINUX_SIZES.map((n) => `icons/${n}x${n}.png`), 'icon.png', 'icon.ico']
    expect(Object.keys(manifest.files).sort()).toEqual(expected.sort())
    for (const [file, hash] of Object.entries(manifest.files)) {
      expect(sha256(readFileSync(join(BUILD_DIR, file))), `${file}: ${STALE}`).toBe(hash)
    }
  })

  it('have the sizes each system asks for', () => {
    for (const n of LINUX_SIZES) expect(pngSize(readFileSync(join(BUILD_DIR, 'icons', `${n}x${n}.png`)))).toEqual({ width: n, height: n })
    // macOS's .icns is made from a 1024 px PNG.
    expect(pngSize(readFileSync(join(BUILD_DIR, 'icon.png')))).toEqual({ width: 1024, height: 1024 })
    // An ICO directory: one entry per size, 0 meaning 256 (electron-builder wants 256).
    const ico = readFileSync(join(BUILD_DIR, 'icon.ico'))
    const count = ico.readUInt16LE(4)
    const sizes = Array.from({ length: count }, (_, i) => ico[6 + i * 16] || 256)
    expect(sizes.sort((a, b) => a - b)).toEqual([...ICO_SIZES])
  })

  it('notice a changed SVG (the check above can fail)', () => {
    const edited = readFileSync(SOURCE, 'utf8').replace('#FFD166', '#FF0000')
    expect(sha256(edited)).not.toBe(manifest.source)
    // ...and a render of it differs from the committed one.
    expect(sha256(renderPng(edited, 32))).not.toBe(manifest.files['icons/32x32.png'])
  })
})
