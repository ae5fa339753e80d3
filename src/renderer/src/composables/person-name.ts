/**
 * How a line of feedback names a person: "@bob". The one place it is decided, so the
 * display names the people work brings (issue 26, point 1) slot in here for every toast.
 * A DID is shown only when no handle is known yet, cut short: it names, it is not for deciding by.
 */
export function personName(p: { did: string; handle?: string | null }): string {
  if (p.handle) return `@${p.handle}`
  return p.did.length > 20 ? `${p.did.slice(0, 18)}…` : p.did
}

/** "@bob’s", for "Denied @bob’s request". */
export const personsName = (p: { did: string; handle?: string | null }) => `${personName(p)}’s`
