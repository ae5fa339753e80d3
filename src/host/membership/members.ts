import type { Kysely, Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { recordChange } from '../changes.js'
import { refuse } from '../errors.js'
import { ensureConfigurerRemains } from '../groups/assignment.js'

type Db = Kysely<HostDatabaseSchema>
type Tx = Transaction<HostDatabaseSchema>

export async function isMember(db: Db, groupDid: string, did: string): Promise<boolean> {
  return !!(await db.selectFrom('member').select('did').where('groupDid', '=', groupDid).where('did', '=', did).executeTakeFirst())
}

/** Makes `did` a member holding `roles` (inside the caller's transaction). */
export async function addMember(tx: Tx, groupDid: string, did: string, roles: string[], now: string): Promise<void> {
  await tx.insertInto('member').values({ groupDid, did, joinedAt: now, acceptedAt: null }).execute()
  if (roles.length) await tx.insertInto('member_role').values(roles.map((role) => ({ groupDid, did, role }))).execute()
  await recordChange(tx, groupDid, 'member.joined', did)
}

/** Removes a member and their roles; their writes to the group's spaces stop counting. */
export async function removeMember(tx: Tx, groupDid: string, did: string): Promise<void> {
  await tx.deleteFrom('member_role').where('groupDid', '=', groupDid).where('did', '=', did).execute()
  await tx.deleteFrom('member').where('groupDid', '=', groupDid).where('did', '=', did).execute()
}

/**
 * The caller leaves, giving up every role (`NotAMember` if they are not one).
 * `LastConfigurer` when nobody else holds a role able to configure the group: checked
 * after the removal, inside its transaction and under the group's lock, so the refusal
 * rolls it back and two members leaving at once cannot each count the other.
 */
export async function leave(tx: Tx, groupDid: string, did: string): Promise<void> {
  if (!(await isMember(tx, groupDid, did))) throw refuse('NotAMember', 'You are not a member of this group')
  await removeMember(tx, groupDid, did)
  await ensureConfigurerRemains(tx, groupDid, 'You are the only member able to configure this group; give someone else that role before leaving')
  await recordChange(tx, groupDid, 'member.left', did)
}
