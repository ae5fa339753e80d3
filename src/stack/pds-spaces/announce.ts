import { createServiceJwt } from '@atproto/xrpc-server'
import { parseSpaceAddress } from '../../shared/space-address.js'
import type { SpacesContext } from './context.js'
import { groupHostOf } from './group-host.js'

export const NOTIFY_WRITE = 'example.groups.notifyWrite'
const ANNOUNCE_TIMEOUT_MS = 5_000

export interface SpaceWrite {
  space: string
  repo: string
  collection: string
  rkey: string
  cid?: string
  action: 'put' | 'delete'
}

/**
 * Tells the group host that owns the space about a member's write, with service auth
 * the PDS mints for the member (iss = the member, lxm = example.groups.notifyWrite),
 * as `getServiceAuth` would. Only to a host that checks out both ways (`groupHostOf`):
 * the token is good at the real host, so a server that merely claims to be it must
 * never receive one. The host reads the record back and counts members' writes, refusing
 * the rest (spec section 3). Best effort: the write is stored whatever the host says, and a
 * refusal or failure is only logged; there is no retry.
 */
export async function announceWrite(ctx: SpacesContext, write: SpaceWrite): Promise<void> {
  const what = `${write.action} of ${write.space}/${write.repo}/${write.collection}/${write.rkey}`
  try {
    const authority = parseSpaceAddress(write.space)?.authority
    if (!authority) throw new Error('malformed space address')
    const host = await groupHostOf(ctx, authority)
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
