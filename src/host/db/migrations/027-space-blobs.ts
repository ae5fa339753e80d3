import { sql, type Kysely } from 'kysely'
import { isPostgres } from './portable.js'

/**
 * Images uploaded for a group's spaces (issue 27 point 4: an event's image): the bytes,
 * by space and CID, served only to the space's readers (example.groups.getSpaceBlob).
 * Kept apart from `repo_blob`, whose images are public. `groupDid` bounds them per group.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const bytes = isPostgres(db) ? 'bytea' : 'blob'
  await db.schema
    .createTable('space_blob')
    .addColumn('space', 'text', (c) => c.notNull())
    .addColumn('cid', 'text', (c) => c.notNull())
    .addColumn('groupDid', 'text', (c) => c.notNull())
    .addColumn('mimeType', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('content', sql.raw(bytes), (c) => c.notNull())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('space_blob_pk', ['space', 'cid'])
    .execute()
  await db.schema.createIndex('space_blob_group').on('space_blob').columns(['groupDid', 'createdAt']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('space_blob').execute()
}
