import type { IdResolver } from '@atproto/identity'
import { DidNotFoundError, PoorlyFormattedDidDocumentError, PoorlyFormattedDidError, UnsupportedDidMethodError, UnsupportedDidWebPathError } from '@atproto/identity'
import type { DidDocument } from '@atproto/identity'
import { serviceUnavailable } from '../unavailable.js'

/** What a DID's resolution says about the DID itself (as opposed to the directory's health). */
const IDENTITY_ERRORS = [DidNotFoundError, PoorlyFormattedDidError, PoorlyFormattedDidDocumentError, UnsupportedDidMethodError, UnsupportedDidWebPathError]

/**
 * Whether a failed resolution means the PLC directory could not answer (unreachable,
 * timed out, 5xx, 429, garbage), not that the DID is unknown or bad. A did:web that
 * cannot be fetched is its owner's server being down or refusing, which says nothing
 * about this host: only the PLC counts as this host's directory.
 */
export function isDirectoryOutage(did: string, err: unknown): boolean {
  if (!did.startsWith('did:plc:')) return false
  if (IDENTITY_ERRORS.some((E) => err instanceof E)) return false
  const status = (err as { status?: unknown } | null)?.status
  // The PLC answers 404 for an unknown DID (resolved as null, not thrown), 410 for a
  // tombstoned one, 400 for a malformed one: those are answers about the DID.
  if (typeof status === 'number' && status >= 400 && status < 500 && status !== 429) return false
  return true
}

/**
 * A DID document through the host's cache, or null when the DID does not resolve.
 * Throws 503 `ServiceUnavailable` when the PLC directory cannot be reached, so that an
 * outage is never mistaken for a bad identity (a 401, or "unknown group").
 */
export async function resolveDidDocument(idResolver: IdResolver, did: string, forceRefresh = false): Promise<DidDocument | null> {
  try {
    return await idResolver.did.resolve(did, forceRefresh)
  } catch (err) {
    if (isDirectoryOutage(did, err)) {
      throw serviceUnavailable('The identity directory (PLC) cannot be reached just now, so the DID could not be checked; try again shortly')
    }
    return null
  }
}
