import type { Kysely } from 'kysely'

/**
 * Join requests are bounded (issue 22): decided and withdrawn ones are pruned a day
 * after their decision, group by group, and one person's requests to one group are
 * counted over the last day. Each needs its index, or every request would scan the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('join_request_decided').on('join_request').columns(['groupDid', 'decidedAt']).execute()
  await db.schema.createIndex('join_request_person').on('join_request').columns(['groupDid', 'did', 'createdAt']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('join_request_person').execute()
  await db.schema.dropIndex('join_request_decided').execute()
}
