import type { Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { refuse } from '../errors.js'
import { recordChange } from '../changes.js'
import type { Viewer } from './access.js'
import { ensureConfigurerRemains } from './assignment.js'
import { removeMember } from './membership.js'

type Tx = Transaction<HostDatabaseSchema>

/**
 * Removes a member on behalf of `viewer`, who must hold `eject` through a role that may
 * assign every role the member holds (an admin can remove members and moderators but
 * not an owner or another admin). Shared by `ejectMember` and a moderator's takedown of
 * an account; the caller records the history entry, which differs between the two.
 */
export async function ejectMemberAs(tx: Tx, groupDid: string, viewer: Viewer, did: string): Promise<void> {
  const held = await tx.selectFrom('member_role').select('role').where('groupDid', '=', groupDid).where('did', '=', did).execute()
  const ejectable = viewer.assignableVia('eject')
  const beyond = held.map((r) => r.role).filter((r) => !ejectable.has(r))
  if (beyond.length) {
    throw refuse('NotAssignable', `Your roles do not let you eject someone holding ${beyond.map((r) => `"${r}"`).join(', ')}`)
  }
  await removeMember(tx, groupDid, did)
  await ensureConfigurerRemains(tx, groupDid)
  await recordChange(tx, groupDid, 'member.ejected', did)
}

/**
 * Keeps `did` out of the group until someone holding `eject` lifts the ban. Returns
 * whether this made the ban (false: they were banned already, and that ban stands as it was).
 */
export async function banFromGroup(tx: Tx, groupDid: string, did: string, note: string | null, by: string, at = new Date().toISOString()): Promise<boolean> {
  const res = await tx
    .insertInto('ban')
    .values({ groupDid, did, note, createdBy: by, createdAt: at })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst()
  const made = Number(res.numInsertedOrUpdatedRows ?? 0) > 0
  if (made) await recordChange(tx, groupDid, 'ban.created', did)
  await closeWaysIn(tx, groupDid, did, by, at)
  return made
}

/**
 * A ban decides what was waiting to let the person in, with the change-log entries a
 * decision by hand makes: their pending request is denied (left pending, an admin could
 * admit someone the group had just banned), and outstanding invites for them are
 * revoked (left outstanding, lifting the ban would let them straight back in, past the
 * group's approval).
 */
async function closeWaysIn(tx: Tx, groupDid: string, did: string, by: string, at: string): Promise<void> {
  const denied = await tx
    .updateTable('join_request')
    .set({ status: 'denied', decidedAt: at, decidedBy: by })
    .where('groupDid', '=', groupDid)
    .where('did', '=', did)
    .where('status', '=', 'pending')
    .returning('id')
    .execute()
  for (const request of denied) await recordChange(tx, groupDid, 'joinRequest.denied', request.id)
  const revoked = await tx
    .updateTable('invite')
    .set({ status: 'revoked' })
    .where('groupDid', '=', groupDid)
    .where('invitee', '=', did)
    .where('status', '=', 'outstanding')
    .returning('uri')
    .execute()
  for (const invite of revoked) await recordChange(tx, groupDid, 'invite.revoked', invite.uri)
}
