import type { Kysely, Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { refuse } from '../errors.js'
import type { Viewer } from '../groups/access.js'
import { refuseIfAdmitteeBanned } from './bans.js'
import { decidePending } from './join-requests.js'
import { redeemOutstanding } from './invites.js'
import { addMember } from './members.js'

type Db = Kysely<HostDatabaseSchema>
type Tx = Transaction<HostDatabaseSchema>

/**
 * Lets `did` in. Every way in takes this one path (an admin's `admitMember`, `requestJoin`
 * redeeming an invite, `requestJoin` to an open group), so the change log tells the same
 * story whichever it was: a request still pending is decided (`joinRequest.admitted`),
 * the person becomes a member (`member.joined`), and an invite still outstanding for them
 * has done its job (`invite.redeemed`). Left pending, an admin's later decision on the
 * request would meet a member and fail; left outstanding, the invite would let them skip
 * approval should they ever leave and ask again. `invite` names the invite that let them
 * in, kept on the request it decided. With `onlyIfPending` (an admin deciding a
 * request) nothing happens unless a request was pending; answers whether they are in.
 */
export async function admit(
  tx: Tx,
  groupDid: string,
  did: string,
  way: { roles: string[]; by: string | null; invite?: string; onlyIfPending?: boolean },
  now = new Date().toISOString(),
): Promise<boolean> {
  const decided = await decidePending(tx, groupDid, did, 'admitted', now, way.by, way.invite)
  if (way.onlyIfPending && !decided.length) return false
  await addMember(tx, groupDid, did, way.roles, now)
  await redeemOutstanding(tx, groupDid, did)
  return true
}

/**
 * An admin decides a pending request (`admitMember`): `RequestNotFound` when none is
 * pending, as for a request already decided or withdrawn, so of two admins deciding at
 * once exactly one wins. A banned person is not admitted (`Forbidden`), whatever is
 * pending: the ban is lifted first (unbanMember).
 */
export async function decideJoinRequest(tx: Tx, groupDid: string, viewer: Viewer, did: string, decision: 'admit' | 'deny', roles?: string[]): Promise<void> {
  const notFound = () => refuse('RequestNotFound', `${did} has no pending request to join this group`)
  if (decision === 'deny') {
    const denied = await decidePending(tx, groupDid, did, 'denied', new Date().toISOString(), viewer.did)
    if (!denied.length) throw notFound()
    return
  }
  await refuseIfAdmitteeBanned(tx, groupDid, did)
  const granted = await admissionRoles(tx, groupDid, viewer, roles)
  if (!(await admit(tx, groupDid, did, { roles: granted, by: viewer.did, onlyIfPending: true }))) throw notFound()
}

const DEFAULT_ROLES = ['member']

/**
 * The roles to admit with. Plain `member` is what admission means, so `admit` alone
 * gives it; anything more is a grant, and must be a role the caller could grant
 * anyway: one assignable through a role of theirs granting `role.assign` or `admit`.
 */
async function admissionRoles(db: Db, groupDid: string, viewer: Viewer, asked: string[] | undefined): Promise<string[]> {
  const roles = [...new Set(asked ?? DEFAULT_ROLES)]
  if (roles.length === 0) throw refuse('InvalidRequest', 'Give at least one role, or leave roles out to admit as a member')
  const known = new Set((await db.selectFrom('role').select('name').where('groupDid', '=', groupDid).execute()).map((r) => r.name))
  const unknown = roles.filter((r) => !known.has(r))
  if (unknown.length) throw refuse('InvalidRequest', `This group has no role ${unknown.map((r) => `"${r}"`).join(', ')}`)
  const grantable = new Set([...viewer.assignableVia('role.assign'), ...viewer.assignableVia('admit')])
  const beyond = roles.filter((r) => r !== 'member' && !grantable.has(r))
  if (beyond.length) {
    throw refuse('NotAssignable', `Your roles do not let you grant ${beyond.map((r) => `"${r}"`).join(', ')}`)
  }
  return roles
}
