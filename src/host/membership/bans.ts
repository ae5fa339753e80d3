import type { Kysely, Transaction } from 'kysely'
import type { BanTable, HostDatabaseSchema } from '../db/schema.js'
import { refuse } from '../errors.js'
import { recordChange } from '../changes.js'
import { recordModerationEvent } from '../moderation/subjects.js'

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

/**
 * Lifts a ban made by `ejectMember` with `ban`, or by taking the account down
 * (`NotBanned` if there is none). The person may then ask to join or be invited. A
 * takedown of the account ends with its ban, and its history says so, or moderators
 * would go on reading "banned" about someone who is not.
 */
export async function liftBan(tx: Transaction<HostDatabaseSchema>, groupDid: string, did: string, by: string): Promise<void> {
  const lifted = await tx.deleteFrom('ban').where('groupDid', '=', groupDid).where('did', '=', did).executeTakeFirst()
  if (!lifted.numDeletedRows) throw refuse('NotBanned', `${did} is not banned from this group`)
  await recordChange(tx, groupDid, 'ban.lifted', did)
  const takedown = await tx.deleteFrom('takedown').where('groupDid', '=', groupDid).where('subjectKey', '=', did).executeTakeFirst()
  if (Number(takedown.numDeletedRows) > 0) {
    await recordModerationEvent(tx, { groupDid, subjectKey: did, kind: 'reverseTakedown', data: { note: 'The ban was lifted' }, createdBy: by })
    await recordChange(tx, groupDid, 'subject.updated', did)
  }
}

/** A page of the group's bans, newest first; two can share a millisecond, so the key is the time and then the DID. */
export function bansPage(db: Db, groupDid: string, after: readonly [string, string] | undefined, limit: number): Promise<BanTable[]> {
  let query = db.selectFrom('ban').selectAll().where('groupDid', '=', groupDid)
  if (after) {
    const [createdAt, did] = after
    query = query.where((eb) => eb.or([eb('createdAt', '<', createdAt), eb.and([eb('createdAt', '=', createdAt), eb('did', '<', did)])]))
  }
  return query.orderBy('createdAt', 'desc').orderBy('did', 'desc').limit(limit).execute()
}

export const banKey = (row: BanTable) => [row.createdAt, row.did] as const
