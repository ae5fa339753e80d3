import fs from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from '@playwright/test'

/** axe-core itself, as its package ships it for pages. */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** WCAG 2.1 A and AA: what the app is held to. */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

interface AxeResult {
  violations: { id: string; nodes: { target: string[] }[] }[]
}

/**
 * What axe-core finds against WCAG 2.1 A and AA on the page (within the elements
 * `include` selects; only `rules` when given), as "rule: where" lines: empty when clean.
 *
 * axe is put into the page once per document (the app never reloads between screens) and
 * asked for violations only. `@axe-core/playwright`'s AxeBuilder put it in again for every
 * scan and carried every result back, passes included: about 1.8 s a scan here against
 * 0.1 s, and the suite scans some sixty screens. The rules run are the same.
 */
export async function axeViolations(page: Page, opts: { include?: string; rules?: string[] } = {}): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the window's Content-Security-Policy (no inline scripts) does not govern.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE)
  const runOnly = opts.rules ? { type: 'rule', values: opts.rules } : { type: 'tag', values: WCAG_AA }
  return page.evaluate(
    async ({ include, runOnly }) => {
      const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<AxeResult> } }).axe
      const result = await axe.run(include ? { include: [include] } : (globalThis as unknown as { document: unknown }).document, { runOnly, resultTypes: ['violations'] })
      return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`))
    },
    { include: opts.include, runOnly },
  )
}
