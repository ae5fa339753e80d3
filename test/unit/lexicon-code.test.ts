import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const TREE = path.resolve('src/node/lexicon')

/** Every file under `dir` but the stamp, by path relative to it. */
function files(dir: string, sub = ''): Map<string, string> {
  const out = new Map<string, string>()
  for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
    const rel = path.join(sub, entry.name)
    if (entry.isDirectory()) for (const [k, v] of files(dir, rel)) out.set(k, v)
    else if (rel !== '.stamp') out.set(rel, fs.readFileSync(path.join(dir, rel), 'utf8'))
  }
  return out
}

const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-lexicon-'))
afterAll(() => fs.rmSync(fresh, { recursive: true, force: true }))

describe('the code generated from the lexicons (src/node/lexicon)', () => {
  it('is what the lexicons as they are now generate (setup regenerates it; `npm run codegen` forces it)', () => {
    execFileSync(process.execPath, ['scripts/lexicon-code.mjs', '--into', fresh], { stdio: ['ignore', 'ignore', 'pipe'] })
    const want = files(fresh)
    const have = files(TREE)
    expect([...have.keys()].sort()).toEqual([...want.keys()].sort())
    for (const [file, text] of want) expect(have.get(file), file).toBe(text)
  }, 60_000)
})
