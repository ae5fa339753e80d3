import type { Kysely } from 'kysely'

/**
 * A group's avatar (issue 25 point 4): one small image per group, its bytes as base64
 * text (portable across SQLite and PostgreSQL; bounded by groups/avatar.ts to a few
 * tens of kilobytes, so a blob store would buy nothing), with its sniffed type.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('group_avatar')
    .addColumn('groupDid', 'text', (c) => c.primaryKey())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('updatedAt', 'text', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('group_avatar').execute()
}
