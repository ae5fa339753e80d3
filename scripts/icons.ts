/**
 * Renders build/icon.svg into every icon electron-builder packages, and records what it
 * made in build/icons.json:
 *   build/icons/<n>x<n>.png  16…512, Linux (electron-builder's `linux.icon` folder)
 *   build/icon.png           1024, macOS (electron-builder makes the .icns from it)
 *   build/icon.ico           16…256, Windows
 * The outputs are committed, so packaging needs no generation step; the manifest's
 * hashes let a unit test (test/unit/icons.test.ts) notice renders older than the SVG.
 *
 *   node --import tsx scripts/icons.ts
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Resvg } from '@resvg/resvg-js'
import pngToIco from 'png-to-ico'

export const BUILD_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'build')
export const SOURCE = join(BUILD_DIR, 'icon.svg')
export const MANIFEST = join(BUILD_DIR, 'icons.json')
export const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512] as const
/** Windows shows 16…48 in lists and the taskbar, 256 in large views (electron-builder's minimum). */
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256] as const

export interface IconManifest {
  /** sha256 of build/icon.svg when the renders were made. */
  source: string
  /** Each output, relative to build/, with its sha256. */
  files: Record<string, string>
}

export const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex')

export function renderPng(svg: Buffer | string, size: number): Buffer {
  return Buffer.from(new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng())
}

async function main(): Promise<void> {
  const svg = readFileSync(SOURCE)
  const outputs = new Map<string, Buffer>()
  for (const size of LINUX_SIZES) outputs.set(join(BUILD_DIR, 'icons', `${size}x${size}.png`), renderPng(svg, size))
  outputs.set(join(BUILD_DIR, 'icon.png'), renderPng(svg, 1024))
  // Each ICO frame rendered at its own size (sharper than one image scaled down).
  outputs.set(join(BUILD_DIR, 'icon.ico'), await pngToIco(ICO_SIZES.map((size) => renderPng(svg, size))))

  const manifest: IconManifest = { source: sha256(svg), files: {} }
  for (const [path, bytes] of outputs) {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, bytes)
    manifest.files[relative(BUILD_DIR, path).split('\\').join('/')] = sha256(bytes)
  }
  writeFileSync(MANIFEST, JSON.stringify(manifest, null, 2) + '\n')
  console.log(`rendered ${outputs.size} icons from ${relative(process.cwd(), SOURCE)}`)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main()
