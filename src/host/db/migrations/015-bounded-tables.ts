import type { Kysely } from 'kysely'

/**
 * What bounds the tables a caller can grow needs looked up quickly (issue 22). Join
 * requests: decided and withdrawn ones are pruned a day after their decision, group by
 * group, and one person's requests to one group are counted over the last day. Reports:
 * one person's reports waiting for a group's moderators are counted, and a subject's
 * last resolution found in its history.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('join_request_decided').on('join_request').columns(['groupDid', 'decidedAt']).execute()
  await db.schema.createIndex('join_request_person').on('join_request').columns(['groupDid', 'did', 'createdAt']).execute()
  await db.schema.createIndex('report_reporter').on('report').columns(['groupDid', 'reportedBy', 'subjectKey']).execute()
  await db.schema.createIndex('moderation_event_subject').on('moderation_event').columns(['groupDid', 'subjectKey', 'id']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['moderation_event_subject', 'report_reporter', 'join_request_person', 'join_request_decided']) {
    await db.schema.dropIndex(index).execute()
  }
}
