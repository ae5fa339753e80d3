import type { InviteListResult } from '../../../shared/ipc/my-invite-views.js'
import type { GroupService } from '../groups/group-service.js'
import { readItem } from '../cache/items.js'
import { resolvePerson, type IdentityDeps } from '../people/resolve-person.js'

/** People looked up at once: handles resolve at other people's servers. */
const AT_ONCE = 4

/**
 * Inviting a list of people in one step (issue 27): each handle or DID is looked up,
 * and the core says per person what became of it. Those already members or already
 * invited (an invite still waiting, or one queued by an earlier try of the same list)
 * are named and left, so running a list again sends nothing twice; the rest are
 * queued together as one batch of invites, sent like any action (offline too).
 */
export async function inviteList(
  groups: GroupService,
  deps: IdentityDeps,
  accountDid: string,
  groupDid: string,
  refs: string[],
  message: string | undefined,
): Promise<InviteListResult[]> {
  const cache = await groups.runtime(accountDid).then((rt) => rt.cache)
  const results: InviteListResult[] = new Array(refs.length)
  const queue = refs.map((ref, i) => ({ ref, i }))
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) results[next.i] = await lookUp(next.ref, deps)
    }),
  )
  const chosen = new Set<string>()
  for (const r of results) {
    if (r.outcome !== 'invited' || !r.did) continue
    if (chosen.has(r.did)) Object.assign(r, { outcome: 'duplicate', detail: 'Listed twice: invited once.' })
    else if (await readItem(cache, groupDid, 'member', r.did)) Object.assign(r, { outcome: 'alreadyMember', detail: 'Already a member.' })
    else if (await readItem(cache, groupDid, 'invite', r.did)) Object.assign(r, { outcome: 'alreadyInvited', detail: 'Already invited: their invite is waiting.' })
    chosen.add(r.did)
  }
  const toInvite = results.filter((r) => r.outcome === 'invited')
  // Checked both ways just now: the pending invites name them at once.
  for (const r of toInvite) if (r.handle) await groups.rememberHandle(r.did!, r.handle)
  if (toInvite.length) {
    await groups.organizing.actMany(accountDid, groupDid, toInvite.map((r) => ({ kind: 'invite.create' as const, invitee: r.did!, ...(message ? { message } : {}) })))
  }
  return results
}

async function lookUp(ref: string, deps: IdentityDeps): Promise<InviteListResult> {
  try {
    const person = await resolvePerson(ref, deps)
    return { ref, outcome: 'invited', did: person.did, handle: person.handle, detail: 'Invited.' }
  } catch (err) {
    return { ref, outcome: 'notFound', did: null, handle: null, detail: (err as Error).message }
  }
}
