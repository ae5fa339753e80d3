import fs from 'node:fs'
import path from 'node:path'

export interface LexiconDoc {
  lexicon: 1
  id: string
  defs: Record<string, { type: string; [k: string]: unknown }>
  [k: string]: unknown
}

/** The repository's lexicons: the interface's source of truth. */
export const LEXICON_DIR = path.resolve(import.meta.dirname, '../../lexicons')

/** Every lexicon under `dir`, laid out by NSID (lexicons/example/groups/requestJoin.json). */
export function readLexicons(dir: string = LEXICON_DIR): LexiconDoc[] {
  const out: LexiconDoc[] = []
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.name.endsWith('.json')) out.push(JSON.parse(fs.readFileSync(p, 'utf8')) as LexiconDoc)
    }
  }
  walk(dir)
  return out.sort((a, b) => a.id.localeCompare(b.id))
}
