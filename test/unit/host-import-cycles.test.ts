import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const HOST = path.resolve(import.meta.dirname, '../../src/host')

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name)
    if (e.isDirectory()) return sourceFiles(full)
    return e.name.endsWith('.ts') ? [full] : []
  })
}

/**
 * The host modules a file loads when it runs: its relative imports and re-exports,
 * leaving out those TypeScript erases (`import type`, and braces holding types only).
 */
function runtimeImports(file: string): string[] {
  const code = fs.readFileSync(file, 'utf8')
  const found: string[] = []
  const statement = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"](\.[^'"]+)['"]|^\s*import\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/gm
  for (const m of code.matchAll(statement)) {
    const [, , typeOnly, clause, from, bare, dynamic] = m
    const target = from ?? bare ?? dynamic
    if (!target || typeOnly) continue
    const braces = clause ? /^\{([^}]*)\}$/.exec(clause.trim()) : null
    if (braces && braces[1]!.split(',').map((s) => s.trim()).filter(Boolean).every((s) => s.startsWith('type '))) continue
    const resolved = path.resolve(path.dirname(file), target.replace(/\.js$/, '.ts'))
    if (resolved.startsWith(HOST + path.sep) && fs.existsSync(resolved)) found.push(resolved)
  }
  return found
}

/** Every cycle of runtime imports, each as the files around it (strongly connected components of more than one file, or a file importing itself). */
function cycles(files: string[]): string[][] {
  const edges = new Map(files.map((f) => [f, runtimeImports(f)]))
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
      if (component.length > 1 || edges.get(v)!.includes(v)) found.push(component.map((f) => path.relative(HOST, f)).sort())
    }
  }
  for (const f of files) if (!index.has(f)) visit(f)
  return found
}

describe('the host’s modules', () => {
  it('load without a cycle: a module never needs, at run time, one that needs it', () => {
    expect(cycles(sourceFiles(HOST))).toEqual([])
  })

  it('(the check sees a cycle when there is one)', () => {
    const dir = fs.mkdtempSync(path.join(HOST, '.cycle-probe-'))
    try {
      fs.writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b.js'\nexport const a = () => b\n")
      fs.writeFileSync(path.join(dir, 'b.ts'), "import { a } from './a.js'\nimport type { C } from './c.js'\nexport const b = () => a\n")
      fs.writeFileSync(path.join(dir, 'c.ts'), "import { type B } from './b.js'\nexport type C = B\n")
      expect(cycles(sourceFiles(dir))).toEqual([[path.relative(HOST, path.join(dir, 'a.ts')), path.relative(HOST, path.join(dir, 'b.ts'))]])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
