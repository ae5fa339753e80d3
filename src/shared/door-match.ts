import { typedDoorCode } from './door-code.js'

/**
 * Door mode's search (issue 27): a few letters of a name or handle to the people to
 * check in, fast enough for 5,000 at every keystroke (one pass over a prepared index,
 * no sorting of the whole list). Pure: the window uses it, the unit tests and the
 * bench measure it.
 */

export interface DoorCandidate {
  did: string
  handle: string | null
  displayName: string | null
  going: boolean
  member: boolean
  /** Their door code (door-code.ts), when known: typed whole, it finds them first. */
  code?: string | null
}

interface Indexed<P> {
  person: P
  /** Lower-case name and handle, searched as typed. */
  name: string
  handle: string
  /** Where each word of the name (and each part of the handle) starts. */
  words: string[]
}

export type DoorIndex<P extends DoorCandidate> = Indexed<P>[]

/** How people are told apart in the search: lower case, accents off (so "jose" finds "José"). */
export const fold = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()

export function doorIndex<P extends DoorCandidate>(people: P[]): DoorIndex<P> {
  return people.map((person) => {
    const name = fold(person.displayName ?? '')
    const handle = fold(person.handle ?? '')
    return { person, name, handle, words: [...name.split(/[\s\-_.]+/), ...handle.split(/[.\-_]+/)].filter(Boolean) }
  })
}

/** What was typed, as the search reads it: trimmed, folded, a leading @ ignored. */
export const doorQuery = (typed: string) => fold(typed.trim().replace(/^@/, ''))

/**
 * How well one person matches: 0 the name or handle starts with it, 1 a word of them
 * does, 2 it is somewhere inside; null not at all.
 */
function quality(p: Indexed<DoorCandidate>, q: string): number | null {
  if (p.name.startsWith(q) || p.handle.startsWith(q)) return 0
  if (p.words.some((w) => w.startsWith(q))) return 1
  if (p.name.includes(q) || p.handle.includes(q)) return 2
  return null
}

/**
 * The people matching what was typed, best first: those not yet checked in before those
 * who are, then those who answered "going", then members, then how well they match,
 * then by name. At most `limit` (the door shows a few, large).
 */
export function matchDoor<P extends DoorCandidate>(index: DoorIndex<P>, typed: string, checkedIn: ReadonlySet<string>, limit = 8): P[] {
  const q = doorQuery(typed)
  if (!q) return []
  const code = typedDoorCode(typed)
  if (code) {
    const coded = index.filter((p) => p.person.code === code).map((p) => p.person)
    if (coded.length) return coded.slice(0, limit)
  }
  const found: { p: Indexed<P>; rank: number }[] = []
  for (const p of index) {
    const quality_ = quality(p, q)
    if (quality_ === null) continue
    const rank = (checkedIn.has(p.person.did) ? 100 : 0) + (p.person.going ? 0 : p.person.member ? 10 : 20) + quality_
    found.push({ p, rank })
  }
  found.sort((a, b) => a.rank - b.rank || (a.p.name || a.p.handle).localeCompare(b.p.name || b.p.handle))
  return found.slice(0, limit).map((f) => f.p.person)
}

/** Whether what was typed is a handle to look up as a walk-in (has a dot, no spaces): "sam.example.com". */
export const looksLikeHandle = (typed: string) => /^@?[a-z0-9][a-z0-9-]*(\.[a-z0-9-]+)+$/i.test(typed.trim())
