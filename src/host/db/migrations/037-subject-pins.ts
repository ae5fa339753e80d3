import type { Kysely } from 'kysely'

/**
 * A moderation subject pinned to the top of the team's queue (issue 37 point 3: the
 * `pin` and `unpin` moderation events): who pinned it and when; both null when not.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('subject').addColumn('pinnedBy', 'text').execute()
  await db.schema.alterTable('subject').addColumn('pinnedAt', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('subject').dropColumn('pinnedAt').execute()
  await db.schema.alterTable('subject').dropColumn('pinnedBy').execute()
}
