import type { Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { refuse } from '../errors.js'
import { recordChange } from '../changes.js'
import type { Viewer } from '../groups/access.js'
import { ensureConfigurerRemains, requireMember } from '../groups/assignment.js'
import { recordModerationEvent } from '../moderation/subjects.js'
import { revokeOutstanding } from './invites.js'
import { decidePending } from './join-requests.js'
import { removeMember } from './members.js'

type Tx = Transaction<HostDatabaseSchema>

/**
 * `ejectMember`: removes a member (`NotAMember` if they are not one), keeps the removal
 * in the group's moderation history, and with `ban` keeps them out until someone holding
 * `eject` lifts the ban: without it, an open group would let them straight back in. The
 * viewer's right to eject is the caller's to check.
 */
export async function eject(tx: Tx, groupDid: string, viewer: Viewer, did: string, opts: { note?: string; ban?: boolean }): Promise<void> {
  await requireMember(tx, groupDid, did)
  await ejectMemberAs(tx, groupDid, viewer, did)
  const data = { ...(opts.note ? { note: opts.note } : {}), ...(opts.ban ? { ban: true } : {}) }
  await recordModerationEvent(tx, { groupDid, subjectKey: did, kind: 'eject', data, createdBy: viewer.did })
  if (opts.ban) await banFromGroup(tx, groupDid, did, opts.note ?? null, viewer.did)
}

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
 *
 * A ban decides what was waiting to let the person in, with the change-log entries a
 * decision by hand makes: their pending request is denied (left pending, an admin could
 * admit someone the group had just banned), and outstanding invites for them are
 * revoked (left outstanding, lifting the ban would let them straight back in, past the
 * group's approval).
 */
export async function banFromGroup(tx: Tx, groupDid: string, did: string, note: string | null, by: string, at = new Date().toISOString()): Promise<boolean> {
  const res = await tx
    .insertInto('ban')
    .values({ groupDid, did, note, createdBy: by, createdAt: at })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst()
  const made = Number(res.numInsertedOrUpdatedRows ?? 0) > 0
  if (made) await recordChange(tx, groupDid, 'ban.created', did)
  await decidePending(tx, groupDid, did, 'denied', at, by)
  await revokeOutstanding(tx, groupDid, did)
  return made
}
