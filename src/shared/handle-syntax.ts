/**
 * Whether what a person typed can be a handle (or, where one is allowed, a DID), said
 * before anything is sent: a host answers a malformed handle with a bare "could not
 * accept that request", which does not say what was wrong. atproto's handle syntax:
 * two or more labels of letters, digits and hyphens (not at either end) joined by dots,
 * the last not starting with a digit, at most 253 characters.
 */

/** One sentence on what a handle looks like, for every message below. */
export const HANDLE_LOOKS_LIKE = 'A handle looks like bookclub.example.com: words of letters, digits and hyphens joined by dots, with no spaces.'

const LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?'
const HANDLE = new RegExp(`^(?:${LABEL}\\.)+[a-zA-Z](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$`)
const DID = /^did:[a-z]+:[a-zA-Z0-9._:%-]*[a-zA-Z0-9._-]$/

/** The handle as it would be sent: trimmed, without a leading `@`. */
export const cleanHandle = (input: string) => input.trim().replace(/^@/, '')

/** What is wrong with a typed handle, in plain words, or null when it can be one (or is empty: nothing to say yet). */
export function handleProblem(input: string): string | null {
  const h = cleanHandle(input)
  if (!h) return null
  if (/\s/.test(h)) return `A handle has no spaces. ${HANDLE_LOOKS_LIKE}`
  if (h.length > 253 || !HANDLE.test(h)) return `“${h}” is not a handle. ${HANDLE_LOOKS_LIKE}`
  return null
}

/** As `handleProblem`, but a DID (`did:plc:…`, `did:web:…`) is taken too. */
export function handleOrDidProblem(input: string): string | null {
  const h = cleanHandle(input)
  if (h.startsWith('did:')) return DID.test(h) ? null : `“${h}” is not a complete DID. A DID looks like did:plc: followed by letters and digits, with no spaces.`
  return handleProblem(input)
}
