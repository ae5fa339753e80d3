import type { Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { recordChange } from '../changes.js'

type Tx = Transaction<HostDatabaseSchema>

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
