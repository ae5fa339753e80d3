import type { Kysely } from 'kysely'

/**
 * A group's outstanding invites counted by index (issue 35: invites had no bound): the
 * count createInvite makes before each new invite reads only the group's outstanding
 * ones, never its history of redeemed, revoked and declined invites.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('invite_group_status').on('invite').columns(['groupDid', 'status']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('invite_group_status').execute()
}
