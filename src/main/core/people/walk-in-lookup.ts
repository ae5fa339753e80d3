import type { IdResolver } from '@atproto/identity'
import { UserFacingError } from '../ipc/errors.js'
import { verifiedHandleOf } from './resolve-person.js'

/**
 * Handle → DID, telling "no one has it" (null: a directory answered) from "could not be
 * asked" (throws): a walk-in queued at the door offline is refused for the first and
 * tried again later for the second (groups/handle-resolver.ts makes one).
 */
export type StrictHandleLookup = (handle: string) => Promise<string | null>

/** The handle could not be looked up just now (no network, directory down): kept and tried again. */
export const lookupUnavailable = (handle: string) =>
  new UserFacingError('HostUnreachable', `Could not look up @${handle} just now: the walk-in is kept and sent when the network is back.`)

/** What the door and the outbox row say when the handle names nobody. */
export const noOneHasHandle = (handle: string) => new UserFacingError('HandleNotFound', `No one has the handle @${handle}: the walk-in was not recorded.`)

/** Resolves a walk-in's handle to their DID when the check-in is sent. */
export type WalkInResolver = (handle: string) => Promise<string>

/**
 * A walk-in's handle to the person's DID, checked both ways as the app checks handles
 * elsewhere (people/resolve-person.ts): the handle names the DID and the DID's document
 * claims the handle back. Throws noOneHasHandle when it names nobody (or someone who does
 * not claim it), lookupUnavailable when the directories could not be asked.
 */
export function walkInResolver(deps: { idResolver: IdResolver; lookUpHandle: StrictHandleLookup }): WalkInResolver {
  return async (handle) => {
    const did = await deps.lookUpHandle(handle).catch(() => {
      throw lookupUnavailable(handle)
    })
    if (!did) throw noOneHasHandle(handle)
    const doc = await deps.idResolver.did.resolve(did).catch(() => {
      throw lookupUnavailable(handle)
    })
    const back = await verifiedHandleOf(did, doc, { resolveHandle: async (h) => deps.lookUpHandle(h).catch(() => null) }, handle).catch(() => null)
    if (back !== handle.toLowerCase()) throw noOneHasHandle(handle)
    return did
  }
}
