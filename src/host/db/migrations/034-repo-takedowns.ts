import type { Kysely } from 'kysely'

/**
 * Operator takedowns of a group's public repo (issue 35: an operator had no way to stop
 * serving what a group publishes): while a group is here, its repo, records, images and
 * firehose frames are not served and nothing more is committed (repo/takedown.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('repo_takedown')
    .addColumn('groupDid', 'text', (c) => c.primaryKey())
    .addColumn('reason', 'text')
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('repo_takedown').execute()
}
