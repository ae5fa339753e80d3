import { isValidDid } from '@atproto/syntax'
import type { SpacesContext } from './context.js'

const GROUPS_SERVICE = 'groups'
const HEALTH_TIMEOUT_MS = 5_000
/** A host that checked out is trusted this long before it is checked again. */
const CHECKED_FOR_MS = 60_000
/** Past this many groups remembered, the memory starts afresh (it is only a shortcut). */
const MAX_CHECKED = 1_000

/** The group host that owns a space, checked both ways. */
export interface GroupHost {
  /** Its address, from the `#groups` service of the space authority's DID document. */
  url: string
  /** Its service DID, whose own DID document names the same address. */
  did: string
  /** The audience of service auth addressed to it. */
  aud: string
}

type DidDoc = NonNullable<Awaited<ReturnType<SpacesContext['idResolver']['did']['resolve']>>>

function groupsEndpoint(doc: DidDoc, did: string): string | undefined {
  const service = doc.service?.find((s) => s.id === `#${GROUPS_SERVICE}` || s.id === `${did}#${GROUPS_SERVICE}`)
  if (!service || typeof service.serviceEndpoint !== 'string') return undefined
  try {
    return new URL(service.serviceEndpoint).href
  } catch {
    return undefined
  }
}

async function endpointOf(ctx: SpacesContext, did: string): Promise<string> {
  const doc = await ctx.idResolver.did.resolve(did)
  if (!doc) throw new Error(`${did} does not resolve`)
  const url = groupsEndpoint(doc, did)
  if (!url) throw new Error(`${did} names no #${GROUPS_SERVICE} service`)
  return url
}

async function claimedDid(url: string): Promise<string> {
  const res = await fetch(new URL('/xrpc/_health', url), { redirect: 'error', signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) })
  const health = (await res.json().catch(() => ({}))) as { did?: unknown }
  if (!res.ok || typeof health.did !== 'string' || !isValidDid(health.did)) throw new Error(`the group host at ${url} did not say its service DID (${res.status})`)
  return health.did
}

const checked = new Map<string, { host: GroupHost; until: number }>()

/**
 * The host of the group `authority`, believed only when it checks out both ways
 * (decisions 6.1): the group's DID document names an address (`#groups`); the server
 * there says which service DID it is; and that DID's own document names the same
 * address. What a server says about itself is never enough alone: a fake group's
 * server can claim a real host's DID, but the real host's document names the real
 * host's address; and a DID anyone mints can name the real host's address, but the real
 * host does not claim it. Throws when it does not check out.
 */
export async function groupHostOf(ctx: SpacesContext, authority: string): Promise<GroupHost> {
  const cached = checked.get(authority)
  if (cached && cached.until > Date.now()) return cached.host
  const url = await endpointOf(ctx, authority)
  const did = await claimedDid(url)
  const named = await endpointOf(ctx, did).catch((err: Error) => `nothing (${err.message})`)
  if (named !== url) throw new Error(`the server at ${url} says it is ${did}, but ${did}'s DID document names ${named} as its #${GROUPS_SERVICE} service`)
  const host = { url, did, aud: `${did}#${GROUPS_SERVICE}` }
  if (checked.size >= MAX_CHECKED) checked.clear()
  checked.set(authority, { host, until: Date.now() + CHECKED_FOR_MS })
  return host
}
