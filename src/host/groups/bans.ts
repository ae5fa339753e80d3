import type { Kysely } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { refuse } from '../errors.js'

type Db = Kysely<HostDatabaseSchema>

export async function isBanned(db: Db, groupDid: string, did: string): Promise<boolean> {
  const row = await db.selectFrom('ban').select('did').where('groupDid', '=', groupDid).where('did', '=', did).executeTakeFirst()
  return !!row
}

/** The caller asking to join was banned: `Forbidden`, saying how it ends. */
export async function refuseIfCallerBanned(db: Db, groupDid: string, did: string): Promise<void> {
  if (await isBanned(db, groupDid, did)) {
    throw refuse('Forbidden', 'You were removed from this group and may not rejoin until one of its admins lifts the ban')
  }
}

/** An inviter naming a banned person: `Forbidden`, pointing at the way back. */
export async function refuseIfInviteeBanned(db: Db, groupDid: string, did: string): Promise<void> {
  if (await isBanned(db, groupDid, did)) {
    throw refuse('Forbidden', `${did} is banned from this group: lift the ban (unbanMember) before inviting them`)
  }
}

/** Admitting a banned person: `Forbidden`, whatever is pending, pointing at the way back. */
export async function refuseIfAdmitteeBanned(db: Db, groupDid: string, did: string): Promise<void> {
  if (await isBanned(db, groupDid, did)) {
    throw refuse('Forbidden', `${did} is banned from this group: lift the ban (unbanMember) before admitting them`)
  }
}
