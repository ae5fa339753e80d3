import type { IdResolver } from '@atproto/identity'
import { isValidDid, isValidHandle } from '@atproto/syntax'
import { UserFacingError } from '../ipc/errors.js'

export interface ResolvedPerson {
  did: string
  /** Their handle, when their identity names one (a DID nobody can resolve yet has none). */
  handle: string | null
}

/**
 * Someone named by handle or DID, as organizers type them ("@alice.example.com",
 * "did:plc:…"), to the DID the host's methods take. A handle must resolve; a DID is taken
 * as given, since an invite to someone not reachable yet is allowed (`pending:<did>`),
 * with their handle looked up when their identity can be read.
 */
export async function resolvePerson(ref: string, deps: { idResolver: IdResolver; resolveHandle: (handle: string) => Promise<string | null> }): Promise<ResolvedPerson> {
  const input = ref.trim().replace(/^@/, '')
  if (input.startsWith('did:')) {
    if (!isValidDid(input)) throw new UserFacingError('InvalidDid', `"${input}" is not a well-formed DID.`)
    const data = await deps.idResolver.did.resolveAtprotoData(input).catch(() => null)
    return { did: input, handle: data && data.handle !== 'handle.invalid' ? data.handle : null }
  }
  const handle = input.toLowerCase()
  if (!isValidHandle(handle)) throw new UserFacingError('InvalidHandle', `"${input}" is neither a handle (like alice.example.com) nor a DID.`)
  const did = await deps.resolveHandle(handle)
  // Null also when the network could not be asked: the words allow for both.
  if (!did) throw new UserFacingError('HandleNotFound', `No account has the handle @${handle}, or it could not be looked up just now.`)
  return { did, handle }
}
