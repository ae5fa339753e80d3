import { createHash } from 'node:crypto'
import { doorCodeInput, doorCodeOf } from '@shared/door-code.js'

/** Events whose people's codes are kept: a door or two open at once, with room. */
const EVENTS_KEPT = 8
/** Per event (`<group> <rkey>`), each person's code; the most recently used event last. */
const kept = new Map<string, Map<string, string>>()

/**
 * Each person's door code for an event (shared/door-code.ts). Door mode reads its list
 * again after every check-in, and a SHA-256 for each of 10,000 members costs about 50 ms
 * there, so codes are made once per person and event and kept for the few events last
 * asked for. A pure function's results: keeping them changes nothing but the time.
 */
export function doorCodesFor(groupDid: string, rkey: string, dids: Iterable<string>): Map<string, string> {
  const key = `${groupDid} ${rkey}`
  const codes = kept.get(key) ?? new Map<string, string>()
  kept.delete(key)
  kept.set(key, codes)
  if (kept.size > EVENTS_KEPT) kept.delete(kept.keys().next().value!)
  for (const did of dids) {
    if (!codes.has(did)) codes.set(did, doorCodeOf(createHash('sha256').update(doorCodeInput(groupDid, rkey, did)).digest()))
  }
  return codes
}
