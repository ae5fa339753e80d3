import { createServiceJwt } from '@atproto/xrpc-server'
import { parseSpaceAddress } from '../../shared/space-address.js'
import type { SpacesContext } from './context.js'

export const NOTIFY_WRITE = 'example.groups.notifyWrite'
const GROUPS_SERVICE = 'groups'
const ANNOUNCE_TIMEOUT_MS = 5_000

export interface SpaceWrite {
  space: string
  repo: string
  collection: string
  rkey: string
  cid?: string
  action: 'put' | 'delete'
}

/** The group host that owns a space: the `#groups` service of the space authority's DID document. */
async function hostOf(ctx: SpacesContext, authority: string): Promise<{ url: string; aud: string }> {
  const doc = await ctx.idResolver.did.resolve(authority)
  if (!doc) throw new Error(`the space's authority ${authority} does not resolve`)
  const service = doc.service?.find((s) => s.id === `#${GROUPS_SERVICE}` || s.id === `${authority}#${GROUPS_SERVICE}`)
  if (!service || typeof service.serviceEndpoint !== 'string') throw new Error(`${authority} names no #${GROUPS_SERVICE} service`)
  const url = service.serviceEndpoint
  // The group's document names the host's address but not the host's own service DID,
  // which the token's audience must be; the host publishes it on its health route.
  const res = await fetch(new URL('/xrpc/_health', url), { signal: AbortSignal.timeout(ANNOUNCE_TIMEOUT_MS) })
  const health = (await res.json().catch(() => ({}))) as { did?: unknown; aud?: unknown }
  if (!res.ok || typeof health.did !== 'string') throw new Error(`the group host at ${url} did not say its service DID (${res.status})`)
  return { url, aud: typeof health.aud === 'string' ? health.aud : `${health.did}#${GROUPS_SERVICE}` }
}

/**
 * Tells the group host that owns the space about a member's write, with service auth
 * the PDS mints for the member (iss = the member, lxm = example.groups.notifyWrite),
 * as `getServiceAuth` would. The host counts members' writes and refuses the rest
 * (spec section 3). Best effort: the write is stored whatever the host says, and a
 * refusal or failure is only logged; there is no retry.
 */
export async function announceWrite(ctx: SpacesContext, write: SpaceWrite): Promise<void> {
  const what = `${write.action} of ${write.space}/${write.repo}/${write.collection}/${write.rkey}`
  try {
    const authority = parseSpaceAddress(write.space)?.authority
    if (!authority) throw new Error('malformed space address')
    const host = await hostOf(ctx, authority)
    const token = await createServiceJwt({
      iss: write.repo,
      aud: host.aud,
      lxm: NOTIFY_WRITE,
      keypair: await ctx.pds.actorStore.keypair(write.repo),
    })
    const res = await fetch(new URL(`/xrpc/${NOTIFY_WRITE}`, host.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(write),
      signal: AbortSignal.timeout(ANNOUNCE_TIMEOUT_MS),
    })
    const body = (await res.json().catch(() => ({}))) as { accepted?: boolean; error?: string; message?: string }
    if (!res.ok) ctx.log(`the group host refused the ${what}: ${res.status} ${body.error ?? ''} ${body.message ?? ''}`.trim())
    else if (body.accepted !== true) ctx.log(`the group host did not count the ${what}`)
  } catch (err) {
    ctx.log(`could not announce the ${what} to the group host: ${(err as Error).message}`)
  }
}
