import { personName as displayedName } from './display'

type Person = { did: string; handle?: string | null; displayName?: string | null }

/**
 * How a line of feedback names a person: their display name and handle, as everywhere
 * else (display.ts), "you" when `me` is them. A DID is shown only when neither is known yet, cut short: it names,
 * it is not for deciding by.
 */
export function personName(p: Person, me?: string): string {
  if ((me && p.did === me) || p.displayName || p.handle) return displayedName(p, me)
  return p.did.length > 20 ? `${p.did.slice(0, 18)}…` : p.did
}

/** "Ada Brooks (@ada…)’s", for "Denied …’s request". */
export const personsName = (p: Person) => `${personName(p)}’s`
