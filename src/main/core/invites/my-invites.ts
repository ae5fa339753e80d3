import type { MyInvite } from '../../../shared/ipc/my-invite-views.js'
import { UserFacingError } from '../ipc/errors.js'
import { errorFields, log } from '../log/log.js'
import { knownHosts, type FindMyGroupsDeps } from '../groups/find-my-groups.js'
import { allPages } from '../xrpc/host-pages.js'
import { resolveGroup } from '../groups/resolve-group.js'
import { verifiedHandle } from '../people/resolve-person.js'

/** A host that lists more than this for one person is not believed past it. */
const MAX_INVITES_PER_HOST = 200

/**
 * The person's own invites (issue 28): every known host is asked for the account's
 * outstanding invites (`listMyInvites`). As with the person's groups, a host is believed
 * only for groups it really hosts (each group's DID document must name it), and names
 * are shown only once they check out both ways: the group's handle, and who invited.
 * Read live, not cached: an invite is answered once, and a stale one would only mislead.
 */
export async function listMyInvites(accountDid: string, deps: FindMyGroupsDeps): Promise<{ invites: MyInvite[]; unreachableHosts: string[] }> {
  const rt = await deps.groups.runtime(accountDid)
  const { addresses, unreachable } = await knownHosts(deps)
  const invites: MyInvite[] = []
  for (const address of addresses) {
    let listed
    try {
      listed = await allPages(async (cursor) => {
        const res = await rt.host(address).query('example.groups.listMyInvites', { limit: 100, cursor })
        return { items: res.invites, cursor: res.cursor }
      })
    } catch (err) {
      log.warn('invites', 'a host could not list your invites', { host: address.url, ...errorFields(err) })
      unreachable.push(address.url)
      continue
    }
    for (const invite of listed.slice(0, MAX_INVITES_PER_HOST)) {
      const group = await resolveGroup(invite.group, deps).catch(() => null)
      if (group?.host.url !== address.url) {
        log.warn('invites', 'a host listed an invite to a group it does not host', { host: address.url, groupDid: invite.group })
        continue
      }
      const inviterHandle = invite.invitedBy ? await verifiedHandle(invite.invitedBy, deps).catch(() => null) : null
      invites.push({
        groupDid: group.did,
        groupHandle: group.handle,
        groupName: invite.displayName ?? null,
        joinPolicy: invite.joinPolicy,
        invitedBy: invite.invitedBy ? { did: invite.invitedBy, handle: inviterHandle } : null,
        message: invite.message ?? null,
        createdAt: invite.createdAt,
      })
    }
  }
  return { invites, unreachableHosts: unreachable }
}

/**
 * Accepting an invite: the group joins the account's list, and asking to join (which
 * the host answers by redeeming the invite, under any policy) and accepting the
 * membership are queued together, in order, so a dropped network only delays them.
 */
export async function acceptInvite(accountDid: string, groupDid: string, deps: FindMyGroupsDeps): Promise<void> {
  await deps.groups.syncing.addGroup(accountDid, groupDid)
  await deps.groups.organizing.actMany(accountDid, groupDid, [{ kind: 'membership.request' }, { kind: 'membership.accept' }])
}

/** Turning an invite down, at once (it is the invitee's own answer, not the group's list to keep). */
export async function declineInvite(accountDid: string, groupDid: string, deps: FindMyGroupsDeps): Promise<void> {
  const rt = await deps.groups.runtime(accountDid)
  const group = await resolveGroup(groupDid, deps)
  try {
    await rt.host(group.host).procedure('example.groups.declineInvite', { group: group.did })
  } catch (err) {
    if ((err as { error?: string }).error === 'InviteNotFound') throw new UserFacingError('InviteNotFound', 'That invite is no longer open: it was taken back, used or already declined.')
    throw err
  }
}
