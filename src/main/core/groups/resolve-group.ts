import type { IdResolver } from '@atproto/identity'
import { UserFacingError } from '../ipc/errors.js'
import { verifiedHandleOf } from '../people/resolve-person.js'
import type { HostAddress } from '../xrpc/host-client.js'
import { handleOrDidProblem } from '../../../shared/handle-syntax.js'

export interface ResolvedGroup {
  did: string
  handle: string | null
  host: HostAddress
}

const GROUPS_SERVICE = 'groups'

function groupsEndpoint(doc: { id: string; service?: { id: string; serviceEndpoint: unknown }[] }): string | null {
  const s = doc.service?.find((x) => x.id === `#${GROUPS_SERVICE}` || x.id === `${doc.id}#${GROUPS_SERVICE}`)
  return typeof s?.serviceEndpoint === 'string' ? s.serviceEndpoint.replace(/\/$/, '') : null
}

/**
 * From a group's handle or DID to its host: the DID document's `#groups` service gives
 * the host's URL; the host names its service DID, and that DID's own document must
 * point back at the same URL, so a host cannot collect tokens addressed to another.
 */
export async function resolveGroup(
  ref: string,
  deps: { idResolver: IdResolver; resolveHandle: (handle: string) => Promise<string | null>; hostFetch: typeof globalThis.fetch },
): Promise<ResolvedGroup> {
  const input = ref.trim().replace(/^@/, '')
  // A malformed handle would reach a server, whose refusal does not say what was wrong.
  const problem = handleOrDidProblem(input)
  if (problem) throw new UserFacingError('InvalidHandle', problem)
  const did = input.startsWith('did:') ? input : await deps.resolveHandle(input.toLowerCase())
  if (!did) throw new UserFacingError('GroupNotFound', `No group or account is known by "${input}".`)
  const doc = await deps.idResolver.did.resolve(did).catch(() => null)
  if (!doc) throw new UserFacingError('GroupNotFound', `The identity ${did} could not be found.`)
  const hostUrl = groupsEndpoint(doc)
  if (!hostUrl) throw new UserFacingError('NotAGroup', `${input} is not a group: its identity names no group host.`)

  // The handle only when it holds both ways (decisions 6.3); one typed here already resolved to this DID.
  const handle = await verifiedHandleOf(did, doc, deps, input.startsWith('did:') ? undefined : input).catch(() => null)
  return { did, handle, host: await hostAddress(hostUrl, deps.idResolver, deps.hostFetch) }
}

/**
 * A host's address for service auth: its service DID from `_health`, accepted only if
 * that DID's own document points back at the same URL, so a host cannot collect
 * tokens addressed to another. The URL comes from a DID document anyone can write, so
 * `hostFetch` is the guarded one (node/safe-fetch.ts's peer fetch: public addresses
 * only, time and size limits) and no redirect is followed.
 */
export async function hostAddress(hostUrl: string, idResolver: IdResolver, hostFetch: typeof globalThis.fetch): Promise<HostAddress> {
  const url = hostUrl.replace(/\/$/, '')
  const health = await hostFetch(new URL('/xrpc/_health', url), { redirect: 'error' })
    .then((r) => r.json() as Promise<{ did?: string }>)
    .catch(() => null)
  if (!health?.did) throw new UserFacingError('HostUnreachable', `The group host at ${url} cannot be reached right now.`)
  const hostDoc = await idResolver.did.resolve(health.did).catch(() => null)
  if (!hostDoc || groupsEndpoint(hostDoc) !== url) {
    throw new UserFacingError('HostIdentityMismatch', `The host at ${url} claims an identity that does not point back at it; Convene will not send it your sign-in.`)
  }
  return { url, aud: `${health.did}#${GROUPS_SERVICE}` }
}
