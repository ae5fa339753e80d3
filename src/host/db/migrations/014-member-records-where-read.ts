import type { Kysely } from 'kysely'
import { inTransaction } from './portable.js'

/** The columns this migration reads, as they stand at 014. */
interface Tables {
  space: { uri: string; type: string; readableBy: string }
  member_record: { space: string; groupDid: string; repo: string }
  member_role: { groupDid: string; did: string; role: string }
}

/**
 * From now on the host keeps a member's record only in a space whose `readableBy` holds
 * one of the member's roles, and never in `meta` (issue 22): drops the copies kept
 * before that rule, which were served to readers the writer could not see. One
 * transaction, as in 004.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await inTransaction(db, async (untyped) => {
    const tx = untyped as unknown as Kysely<Tables>
    const kept = await tx
      .selectFrom('member_record')
      .innerJoin('space', 'space.uri', 'member_record.space')
      .select(['member_record.space', 'member_record.groupDid', 'member_record.repo', 'space.type', 'space.readableBy'])
      .distinct()
      .execute()
    const roleRows = await tx.selectFrom('member_role').select(['groupDid', 'did', 'role']).execute()
    const rolesOf = (groupDid: string, did: string) => roleRows.filter((r) => r.groupDid === groupDid && r.did === did).map((r) => r.role)
    for (const k of kept) {
      const readableBy = JSON.parse(k.readableBy) as string[]
      if (k.type !== 'meta' && rolesOf(k.groupDid, k.repo).some((role) => readableBy.includes(role))) continue
      await tx.deleteFrom('member_record').where('space', '=', k.space).where('repo', '=', k.repo).execute()
    }
  })
}

/** Nothing to undo: the dropped copies are still on the members' PDSes. */
export async function down(): Promise<void> {}
