import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

describe('the code generated from the lexicons (src/node/lexicon)', () => {
  it('is what the lexicons as they are now generate, untouched since (setup regenerates it; `npm run codegen` forces it)', () => {
    // The stamp records what the tree was made from and what it held; --check compares both
    // with the lexicons and the tree as they are now (scripts/lexicon-code.mjs).
    const check = spawnSync(process.execPath, ['scripts/lexicon-code.mjs', '--check'], { encoding: 'utf8' })
    expect(check.stderr).toBe('')
    expect(check.status).toBe(0)
  })
})
