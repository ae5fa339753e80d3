import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const RENDERER = path.resolve(import.meta.dirname, '../../src/renderer/src')

/** Every stylesheet and Vue file of the renderer, with its text. */
function sources(dir: string): [string, string][] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name)
    if (e.isDirectory()) return sources(file)
    return /\.(css|vue)$/.test(e.name) ? [[path.relative(RENDERER, file), fs.readFileSync(file, 'utf8')] as [string, string]] : []
  })
}

describe('the dark scheme', () => {
  // e2e/accessibility.spec.ts checks dark with axe's colour rules only, because dark
  // changes nothing but colours: a layout or content change made there must be checked whole.
  it('only gives the colour custom properties other values', () => {
    const blocks = sources(RENDERER).flatMap(([file, text]) => [...text.matchAll(/@media[^{]*prefers-color-scheme:\s*dark[^{]*\{([\s\S]*?\})\s*\}/g)].map((m) => [file, m[1]!] as const))
    expect(blocks.map(([file]) => file)).toEqual(['styles/base.css'])
    for (const [file, body] of blocks) {
      const rules = [...body.matchAll(/([^{}]+)\{([^}]*)\}/g)]
      expect(rules.map((r) => r[1]!.trim()), file).toEqual([':root'])
      const declarations = rules[0]![2]!.split(';').map((d) => d.trim()).filter(Boolean)
      expect(declarations.length).toBeGreaterThan(5)
      for (const d of declarations) expect(d, file).toMatch(/^--[a-z-]+:\s*#[0-9a-f]{3,8}$/i)
    }
  })
})
