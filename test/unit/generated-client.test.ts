import { Lexicons, type LexiconDoc } from '@atproto/lexicon'
import { describe, expect, it } from 'vitest'
import { readLexicons } from '@node/lexicons.js'
import { schemas } from '@core/xrpc/lexicon/lexicons.js'

describe('the app’s generated host client', () => {
  it('is generated from the lexicons as they are now (run `npm run codegen` after changing one)', () => {
    const methodsAndDefs = readLexicons().filter((doc) => {
      const type = doc.defs.main?.type
      return type === undefined || type === 'query' || type === 'procedure'
    })
    // Loading docs into Lexicons rewrites their local refs (#x to lex:<id>#x), as the
    // generated module's own loading did to its copies: compare both in that form.
    new Lexicons(methodsAndDefs as unknown as LexiconDoc[])
    const generated = new Map<string, unknown>(schemas.map((doc) => [doc.id, doc]))
    expect([...generated.keys()].sort()).toEqual(methodsAndDefs.map((doc) => doc.id).sort())
    for (const doc of methodsAndDefs) expect(generated.get(doc.id), doc.id).toEqual(doc)
  })
})
