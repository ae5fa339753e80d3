import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const HOST = path.resolve(import.meta.dirname, '../../src/host')
const CORE = path.resolve(import.meta.dirname, '../../src/main/core')

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name)
    if (e.isDirectory()) return sourceFiles(full)
    return e.name.endsWith('.ts') ? [full] : []
  })
}

/**
 * The modules under `root` a file imports: its relative imports and re-exports (and the
 * core's `@core/` alias). `types: false` leaves out those TypeScript erases (`import type`,
 * and braces holding types only): what the file loads when it runs.
 */
function imports(file: string, root: string, types: boolean): string[] {
  const code = fs.readFileSync(file, 'utf8')
  const found: string[] = []
  const statement = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]((?:\.|@core\/)[^'"]+)['"]|^\s*import\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/gm
  for (const m of code.matchAll(statement)) {
    const [, , typeOnly, clause, from, bare, dynamic] = m
    const target = from ?? bare ?? dynamic
    if (!target || (typeOnly && !types)) continue
    const braces = clause ? /^\{([^}]*)\}$/.exec(clause.trim()) : null
    if (!types && braces && braces[1]!.split(',').map((s) => s.trim()).filter(Boolean).every((s) => s.startsWith('type '))) continue
    const local = target.replace(/\.js$/, '.ts')
    const resolved = local.startsWith('@core/') ? path.join(CORE, local.slice('@core/'.length)) : path.resolve(path.dirname(file), local)
    if (resolved.startsWith(root + path.sep) && fs.existsSync(resolved)) found.push(resolved)
  }
  return found
}

/** Every cycle of imports, each as the files around it (strongly connected components of more than one file, or a file importing itself). */
function cycles(files: string[], root: string, types = false): string[][] {
  const edges = new Map(files.map((f) => [f, imports(f, root, types)]))
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  let next = 0
  const visit = (v: string) => {
    index.set(v, next)
    low.set(v, next++)
    stack.push(v)
    onStack.add(v)
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!))
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || edges.get(v)!.includes(v)) found.push(component.map((f) => path.relative(root, f)).sort())
    }
  }
  for (const f of files) if (!index.has(f)) visit(f)
  return found
}

describe('the host’s modules', () => {
  it('load without a cycle: a module never needs, at run time, one that needs it', () => {
    expect(cycles(sourceFiles(HOST), HOST)).toEqual([])
  })

  it('(the check sees a cycle when there is one)', () => {
    const dir = fs.mkdtempSync(path.join(HOST, '.cycle-probe-'))
    try {
      fs.writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b.js'\nexport const a = () => b\n")
      fs.writeFileSync(path.join(dir, 'b.ts'), "import { a } from './a.js'\nimport type { C } from './c.js'\nexport const b = () => a\n")
      fs.writeFileSync(path.join(dir, 'c.ts'), "import { type B } from './b.js'\nexport type C = B\n")
      expect(cycles(sourceFiles(dir), HOST)).toEqual([[path.relative(HOST, path.join(dir, 'a.ts')), path.relative(HOST, path.join(dir, 'b.ts'))]])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

/**
 * The app core's modules (issue 37): not even through types. A type edge costs nothing at
 * run time, but a circle of them is how a domain folder comes to lean on the top
 * (app-core.ts, the account runtime): each layer names only those below it
 * (docs/architecture.md, "The core's layers").
 */
describe('the app core’s modules', () => {
  it('import one another without a cycle, types included', () => {
    expect(cycles(sourceFiles(CORE), CORE, true)).toEqual([])
  })

  it('(the check sees a cycle made of type imports only, and one through the @core/ alias)', () => {
    const dir = fs.mkdtempSync(path.join(CORE, '.cycle-probe-'))
    const probe = path.basename(dir)
    try {
      fs.writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b.js'\nexport type A = B[]\n")
      fs.writeFileSync(path.join(dir, 'b.ts'), "import { type A } from './a.js'\nexport type B = A | null\n")
      fs.writeFileSync(path.join(dir, 'c.ts'), `import type { D } from '@core/${probe}/d.js'\nexport type C = D\n`)
      fs.writeFileSync(path.join(dir, 'd.ts'), "import type { C } from './c.js'\nexport type D = C\n")
      expect(cycles(sourceFiles(dir), CORE, true)).toEqual([[`${probe}/a.ts`, `${probe}/b.ts`], [`${probe}/c.ts`, `${probe}/d.ts`]])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
