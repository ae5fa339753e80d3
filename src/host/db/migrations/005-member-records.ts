import type { Kysely } from 'kysely'

/**
 * Members' records in the group's spaces, as the host last read them from each
 * member's own PDS (decisions 6.1): kept to serve `com.atproto.space.listRecords` and
 * `getRecord` with `repo` = the member. The foreign keys make a left or ejected
 * member's records, and a deleted space's, go with them: a non-member's record is
 * never served.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('member_record')
    .addColumn('groupDid', 'text', (c) => c.notNull())
    .addColumn('space', 'text', (c) => c.notNull().references('space.uri').onDelete('cascade'))
    .addColumn('repo', 'text', (c) => c.notNull())
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('rkey', 'text', (c) => c.notNull())
    .addColumn('cid', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('indexedAt', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('member_record_pkey', ['space', 'repo', 'collection', 'rkey'])
    .addForeignKeyConstraint('member_record_member', ['groupDid', 'repo'], 'member', ['groupDid', 'did'], (fk) => fk.onDelete('cascade'))
    .execute()
  // The cascade from `member` looks rows up by member.
  await db.schema.createIndex('member_record_group_repo').on('member_record').columns(['groupDid', 'repo']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('member_record').execute()
}
