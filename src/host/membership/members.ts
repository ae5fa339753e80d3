import type { Kysely, Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { recordChange } from '../changes.js'
import { refuse } from '../errors.js'
import { ensureConfigurerRemains } from '../groups/assignment.js'
import { isPostgres } from '../db/dialect.js'
import { beforeMemberRemoved } from '../spaces/standing.js'

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

/** Removes a member and their roles; their writes to the group's spaces stop counting, and their places at events go to whoever waits. */
export async function removeMember(tx: Tx, groupDid: string, did: string): Promise<void> {
  await beforeMemberRemoved(tx, groupDid, did)
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

/**
 * A page of the group's members, ordered by DID (a stable key, so pages never skip or
 * repeat), with `q` matching a substring of the DID.
 */
export function membersPage(db: Db, groupDid: string, after: string | undefined, q: string | undefined, limit: number) {
  let query = db.selectFrom('member').selectAll().where('groupDid', '=', groupDid)
  if (after !== undefined) query = query.where('did', '>', after)
  // instr, not LIKE: `%` and `_` in a search string are plain characters.
  if (q) query = query.where((eb) => eb(eb.fn(isPostgres(db) ? 'strpos' : 'instr', [eb.fn('lower', ['did']), eb.val(q)]), '>', 0))
  return query.orderBy('did').limit(limit).execute()
}

/** The roles each of `dids` holds in the group. */
export const rolesOfMembers = (db: Db, groupDid: string, dids: string[]) => rolesWhere(db, 'did', dids, 'groupDid', groupDid)

/** A page of the groups `did` is a member of, ordered by group DID. */
export function groupsOfMember(db: Db, did: string, after: string | undefined, limit: number) {
  let query = db
    .selectFrom('member')
    .innerJoin('group', 'group.did', 'member.groupDid')
    .select(['group.did', 'group.handle', 'group.displayName', 'group.joinPolicy', 'member.joinedAt', 'member.acceptedAt'])
    .where('member.did', '=', did)
  if (after !== undefined) query = query.where('group.did', '>', after)
  return query.orderBy('group.did').limit(limit).execute()
}

/** The roles `did` holds in each of `groupDids`. */
export const rolesInGroups = (db: Db, did: string, groupDids: string[]) => rolesWhere(db, 'groupDid', groupDids, 'did', did)

/** Role names by the `by` column's value, among rows whose `by` is one of `keys` and whose `fixed` column is `value`. */
async function rolesWhere(db: Db, by: 'did' | 'groupDid', keys: string[], fixed: 'did' | 'groupDid', value: string): Promise<Map<string, string[]>> {
  const rows = keys.length ? await db.selectFrom('member_role').select([by, 'role']).where(fixed, '=', value).where(by, 'in', keys).orderBy('role').execute() : []
  const roles = new Map<string, string[]>()
  for (const r of rows as { did?: string; groupDid?: string; role: string }[]) {
    const key = r[by]!
    roles.set(key, [...(roles.get(key) ?? []), r.role])
  }
  return roles
}
