import type { Kysely, Transaction } from 'kysely'
import { requireGroupLock } from '../db/group-lock.js'
import type { HostDatabaseSchema } from '../db/schema.js'
import { refuse } from '../errors.js'
import { recordChange } from '../changes.js'
import { configurers, requireAction, viewerOf, type Viewer } from './access.js'

type Db = Kysely<HostDatabaseSchema>

/**
 * The checks shared by granting and revoking a role, in the order a caller can act on
 * them: may they assign at all (`Forbidden`), is it a role of this group
 * (`InvalidRequest`), may they assign this one (`NotAssignable`), is the target a
 * member (`NotAMember`). Run inside the change's transaction so the answer holds.
 */
export async function checkRoleAssignment(db: Db, groupDid: string, caller: string, target: string, role: string): Promise<Viewer> {
  const viewer = await viewerOf(db, groupDid, caller)
  requireAction(viewer, 'role.assign')
  const known = await db.selectFrom('role').select('name').where('groupDid', '=', groupDid).where('name', '=', role).executeTakeFirst()
  if (!known) throw refuse('InvalidRequest', `This group has no role "${role}"`)
  if (!viewer.assignableVia('role.assign').has(role)) {
    throw refuse('NotAssignable', `Your roles do not let you grant or revoke the role "${role}"`)
  }
  await requireMember(db, groupDid, target)
  return viewer
}

export async function requireMember(db: Db, groupDid: string, did: string): Promise<void> {
  const member = await db.selectFrom('member').select('did').where('groupDid', '=', groupDid).where('did', '=', did).executeTakeFirst()
  if (!member) throw refuse('NotAMember', `${did} is not a member of this group`)
}

/**
 * Call after removing roles or a member, inside the same transaction: throwing rolls the
 * change back, so a group is never left without anyone able to configure it. The
 * transaction must have taken the group's lock before it read anything (groupTransaction),
 * or two members giving it up at once could each count the other.
 */
export async function ensureConfigurerRemains(
  tx: Transaction<HostDatabaseSchema>,
  groupDid: string,
  message = 'That would leave nobody able to configure the group; give someone else that role first',
): Promise<void> {
  requireGroupLock(tx, groupDid)
  if ((await configurers(tx, groupDid)).length === 0) throw refuse('LastConfigurer', message)
}


/** Gives a member a role (`member.roleGranted`); one they hold already changes nothing. */
export async function grantRole(tx: Transaction<HostDatabaseSchema>, groupDid: string, did: string, role: string): Promise<void> {
  const res = await tx.insertInto('member_role').values({ groupDid, did, role }).onConflict((oc) => oc.doNothing()).executeTakeFirst()
  if (Number(res.numInsertedOrUpdatedRows ?? 0n) > 0) await recordChange(tx, groupDid, 'member.roleGranted', did)
}

/**
 * Takes a role from a member (`member.roleRevoked`); one they do not hold changes
 * nothing. `LastConfigurer` if nobody would be left able to configure the group.
 */
export async function revokeRole(tx: Transaction<HostDatabaseSchema>, groupDid: string, did: string, role: string): Promise<void> {
  const res = await tx.deleteFrom('member_role').where('groupDid', '=', groupDid).where('did', '=', did).where('role', '=', role).executeTakeFirst()
  if (Number(res.numDeletedRows) === 0) return
  await ensureConfigurerRemains(tx, groupDid)
  await recordChange(tx, groupDid, 'member.roleRevoked', did)
}
