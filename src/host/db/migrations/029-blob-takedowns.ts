import type { Kysely } from 'kysely'

/**
 * The images a takedown hid (issue 35): written when a moderator takes a record down, for
 * each image the record names, and removed only when that takedown is reversed. An image
 * stays hidden however it is named later: the taken-down record deleted, or a new record
 * quoting its CID. Filled here from the takedowns in force.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('blob_takedown')
    .addColumn('space', 'text', (c) => c.notNull())
    .addColumn('cid', 'text', (c) => c.notNull())
    // The taken-down record that hid it: its reversal shows the image again (unless another still hides it).
    .addColumn('uri', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('blob_takedown_pk', ['space', 'cid', 'uri'])
    .execute()
  await db.schema.createIndex('blob_takedown_uri').on('blob_takedown').column('uri').execute()

  const store = db as unknown as Kysely<{
    takedown: { groupDid: string; subjectKey: string }
    record_blob: { space: string; cid: string; uri: string }
    blob_takedown: { space: string; cid: string; uri: string }
  }>
  const hidden = await store
    .selectFrom('record_blob')
    .innerJoin('takedown', 'takedown.subjectKey', 'record_blob.uri')
    .select(['record_blob.space', 'record_blob.cid', 'record_blob.uri'])
    .execute()
  if (hidden.length) await store.insertInto('blob_takedown').values(hidden).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('blob_takedown').execute()
}
