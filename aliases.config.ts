import fs from 'node:fs'
import path from 'node:path'

/**
 * The path aliases (`@shared/…`, `@core/…`, `@node/…`) for Vite, electron-vite and
 * Vitest, read from tsconfig.base.json's `paths` so there is one list: TypeScript,
 * vue-tsc and tsx (which reads tsconfig.json) see the same names.
 */
const root = import.meta.dirname
const base = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } }

export const aliases: Record<string, string> = Object.fromEntries(
  Object.entries(base.compilerOptions.paths).map(([name, [target]]) => [name.replace(/\/\*$/, ''), path.resolve(root, target!.replace(/\/\*$/, ''))]),
)
