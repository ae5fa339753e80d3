import type { Kysely } from 'kysely'

/**
 * Live team work (issue 23). A moderator's hold on a subject ("I'm on it", Ozone's
 * moderator assignment): who, since when, until when; none when all three are null.
 * And members by person: the change stream reads a caller's groups when it opens and
 * while it catches up.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('subject').addColumn('assignedTo', 'text').execute()
  await db.schema.alterTable('subject').addColumn('assignedAt', 'text').execute()
  await db.schema.alterTable('subject').addColumn('assignedUntil', 'text').execute()
  await db.schema.createIndex('member_by_did').on('member').columns(['did', 'groupDid']).execute()
}
