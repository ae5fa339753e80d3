import { sql, type Kysely } from 'kysely'
import { addAutoId, inTransaction, isPostgres } from './portable.js'

/**
 * The group's public atproto repository (issue 28 point 1, src/host/repo): its current
 * commit (`repo_root`), every block of its MST and records (`repo_block`, by group and
 * CID), an index of its records for listRecords (`repo_record`), and the commits in the
 * order they were made, each the firehose frame it is sent as (`repo_event`, whose `seq`
 * is subscribeRepos' cursor), and the images its records refer to (`repo_blob`). Owners and admins get the new `repo.write` action, which a
 * new group's default roles have from the start.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const bytes = isPostgres(db) ? 'bytea' : 'blob'
  await db.schema
    .createTable('repo_root')
    .addColumn('groupDid', 'text', (c) => c.primaryKey())
    .addColumn('cid', 'text', (c) => c.notNull())
    .addColumn('rev', 'text', (c) => c.notNull())
    .addColumn('updatedAt', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('repo_block')
    .addColumn('groupDid', 'text', (c) => c.notNull())
    .addColumn('cid', 'text', (c) => c.notNull())
    .addColumn('rev', 'text', (c) => c.notNull())
    .addColumn('content', sql.raw(bytes), (c) => c.notNull())
    .addPrimaryKeyConstraint('repo_block_pk', ['groupDid', 'cid'])
    .execute()
  await db.schema
    .createTable('repo_record')
    .addColumn('groupDid', 'text', (c) => c.notNull())
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('rkey', 'text', (c) => c.notNull())
    .addColumn('cid', 'text', (c) => c.notNull())
    .addColumn('rev', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('repo_record_pk', ['groupDid', 'collection', 'rkey'])
    .execute()
  await addAutoId(db, db.schema.createTable('repo_event'), 'seq')
    .addColumn('groupDid', 'text', (c) => c.notNull())
    .addColumn('rev', 'text', (c) => c.notNull())
    .addColumn('frame', sql.raw(bytes), (c) => c.notNull())
    .addColumn('time', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('repo_blob')
    .addColumn('groupDid', 'text', (c) => c.notNull())
    .addColumn('cid', 'text', (c) => c.notNull())
    .addColumn('mimeType', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('content', sql.raw(bytes), (c) => c.notNull())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('repo_blob_pk', ['groupDid', 'cid'])
    .execute()
  await inTransaction(db, async (tx) => {
    const roles = await tx
      .selectFrom('role' as never)
      .select(['groupDid', 'name', 'actions'] as never[])
      .where('name' as never, 'in', ['owner', 'admin'] as never)
      .execute() as { groupDid: string; name: string; actions: string }[]
    for (const r of roles) {
      const actions = JSON.parse(r.actions) as string[]
      if (actions.includes('repo.write')) continue
      await tx
        .updateTable('role' as never)
        .set({ actions: JSON.stringify([...actions, 'repo.write']) } as never)
        .where('groupDid' as never, '=', r.groupDid as never)
        .where('name' as never, '=', r.name as never)
        .execute()
    }
  })
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('repo_blob').execute()
  await db.schema.dropTable('repo_event').execute()
  await db.schema.dropTable('repo_record').execute()
  await db.schema.dropTable('repo_block').execute()
  await db.schema.dropTable('repo_root').execute()
}
