import type { IdResolver } from '@atproto/identity'
import { isValidDid, isValidHandle } from '@atproto/syntax'
import { UserFacingError } from '../ipc/errors.js'

export interface ResolvedPerson {
  did: string
  /** Their handle, when their identity names one that checks out both ways. */
  handle: string | null
}

export interface IdentityDeps {
  idResolver: IdResolver
  resolveHandle: (handle: string) => Promise<string | null>
}

/**
 * The handle a DID's document claims, if that handle resolves back to the same DID
 * (anyone may write any handle into their own document). Null when there is no such
 * handle or the DID is unknown; throws when the directory could not be asked, so the
 * caller can try again later rather than remember "no handle".
 */
export async function verifiedHandle(did: string, deps: IdentityDeps): Promise<string | null> {
  return verifiedHandleOf(did, await deps.idResolver.did.resolve(did), deps)
}

/**
 * The same check for a DID document already read. `alreadyResolved`: a handle that was
 * just resolved to this DID (someone typed it), which needs no second lookup.
 */
export async function verifiedHandleOf(
  did: string,
  doc: { alsoKnownAs?: string[] } | null,
  deps: Pick<IdentityDeps, 'resolveHandle'>,
  alreadyResolved?: string,
): Promise<string | null> {
  const claimed = doc?.alsoKnownAs?.find((a) => a.startsWith('at://'))?.slice('at://'.length).toLowerCase()
  if (!claimed || !isValidHandle(claimed)) return null
  if (claimed === alreadyResolved?.toLowerCase()) return claimed
  return (await deps.resolveHandle(claimed)) === did ? claimed : null
}

/**
 * Someone named by handle or DID, as organizers type them ("@alice.example.com",
 * "did:plc:…"), to the DID the host's methods take. A handle must resolve; a DID is taken
 * as given, since an invite to someone not reachable yet is allowed (`pending:<did>`),
 * with their handle looked up when their identity can be read.
 */
export async function resolvePerson(ref: string, deps: IdentityDeps): Promise<ResolvedPerson> {
  const input = ref.trim().replace(/^@/, '')
  if (input.startsWith('did:')) {
    if (!isValidDid(input)) throw new UserFacingError('InvalidDid', `"${input}" is not a well-formed DID.`)
    return { did: input, handle: await verifiedHandle(input, deps).catch(() => null) }
  }
  const handle = input.toLowerCase()
  if (!isValidHandle(handle)) throw new UserFacingError('InvalidHandle', `"${input}" is neither a handle (like alice.example.com) nor a DID.`)
  const did = await deps.resolveHandle(handle)
  // Null also when the network could not be asked: the words allow for both.
  if (!did) throw new UserFacingError('HandleNotFound', `No account has the handle @${handle}, or it could not be looked up just now.`)
  return { did, handle }
}
