import type { Transaction } from 'kysely'
import { lockGroup } from './db/group-lock.js'
import type { HostDatabaseSchema } from './db/schema.js'

/**
 * What the change log records, for clients catching up after being away
 * (`example.groups.listChanges`). Written in the same transaction as the change.
 */
export type ChangeKind =
  | 'group.created'
  | 'group.configured'
  | 'joinRequest.created'
  | 'joinRequest.cancelled'
  | 'joinRequest.admitted'
  | 'joinRequest.denied'
  | 'member.joined'
  | 'member.left'
  | 'member.ejected'
  | 'member.accepted'
  | 'member.acceptanceWithdrawn'
  | 'member.roleGranted'
  | 'member.roleRevoked'
  | 'ban.created'
  | 'ban.lifted'
  | 'invite.created'
  | 'invite.revoked'
  | 'invite.redeemed'
  | 'space.created'
  | 'space.updated'
  | 'space.deleted'
  | 'record.created'
  | 'record.updated'
  | 'record.deleted'
  /** A moderator took the record down: members are no longer served it (issue 17). */
  | 'record.takenDown'
  | 'record.restored'
  | 'subject.reported'
  | 'subject.updated'

export async function recordChange(
  tx: Transaction<HostDatabaseSchema>,
  groupDid: string,
  kind: ChangeKind,
  subject: string | null,
): Promise<void> {
  // Readers page a group's changes by `seq`. PostgreSQL hands out sequence numbers as
  // transactions ask, not as they commit: two processes' writes could commit 11 before
  // 10, and a reader who saw 11 would never see 10. One writer per group at a time (the
  // group's lock, held to the transaction's end) makes `seq` order commit order within
  // the group. SQLite has one writer anyway.
  await lockGroup(tx, groupDid)
  await tx.insertInto('change').values({ groupDid, kind, subject, createdAt: new Date().toISOString() } as never).execute()
}

