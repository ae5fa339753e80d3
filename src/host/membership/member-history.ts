import type { Kysely } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { isBanned } from './bans.js'
import { isMember } from './members.js'

/**
 * What an organizer deciding on someone wants to know of their past here: are they a
 * member, did they leave or get removed (the last time, as far back as the change log
 * goes: --change-log-days), are they banned.
 */
export async function memberHistory(db: Kysely<HostDatabaseSchema>, groupDid: string, did: string) {
  const last = await db
    .selectFrom('change')
    .select(['kind', 'createdAt'])
    .where('groupDid', '=', groupDid)
    .where('subject', '=', did)
    .where('kind', 'in', ['member.left', 'member.ejected'])
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst()
  return {
    member: await isMember(db, groupDid, did),
    formerMember: !!last,
    ...(last ? { leftAt: last.createdAt, how: last.kind === 'member.ejected' ? 'ejected' : 'left' } : {}),
    banned: await isBanned(db, groupDid, did),
  }
}
