import type { Kysely } from 'kysely'

/**
 * Outstanding invites counted per inviter across the host (issue 35 point 11: anyone who
 * makes groups could put an invite, and its message, before any number of people, 10,000
 * per group over a hundred groups): the count createInvite makes reads this index only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('invite_created_by_status').on('invite').columns(['createdBy', 'status']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('invite_created_by_status').execute()
}
