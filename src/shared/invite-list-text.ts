/**
 * The people in a pasted list or a CSV file, as an organizer gives them to invite many
 * at once: every handle or DID found, one per line or cell (a CSV's other columns, a
 * header, quotes and a leading @ are ignored), each once, in the order given. What is
 * neither is kept apart, to be named back ("not a handle") rather than dropped unseen.
 */
export interface ListedPeople {
  refs: string[]
  notPeople: string[]
}

/** A list longer than this is refused whole: it is not a guest list but a mistake. */
export const MAX_LISTED = 500

const DID = /^did:[a-z]+:[a-zA-Z0-9._:%-]+$/
// A handle: at least two dot-separated labels, letters, digits and hyphens (atproto's rule, roughly; the core checks it exactly).
const HANDLE = /^(?=.{3,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/

export function listedPeople(text: string): ListedPeople {
  const refs: string[] = []
  const notPeople: string[] = []
  const seen = new Set<string>()
  for (const line of text.split(/\r?\n/)) {
    const cells = line.split(/[,;\t]/).map((c) => c.trim().replace(/^"(.*)"$/, '$1').trim())
    const people = cells.map((c) => c.replace(/^@/, '')).filter((c) => DID.test(c) || HANDLE.test(c))
    if (!people.length) {
      const shown = line.trim()
      // A CSV's header row names its columns: nothing to say about it.
      if (shown && !/^(handle|did|name|email|who)\b/i.test(shown)) notPeople.push(shown.slice(0, 100))
      continue
    }
    for (const p of people) {
      const key = p.startsWith('did:') ? p : p.toLowerCase()
      if (seen.has(key)) continue
      seen.add(key)
      refs.push(key)
    }
  }
  return { refs, notPeople }
}
