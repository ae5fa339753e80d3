import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('group_row')
    .addColumn('did', 'text', (c) => c.primaryKey())
    .addColumn('view', 'text', (c) => c.notNull())
    .addColumn('hostUrl', 'text', (c) => c.notNull())
    .addColumn('hostAud', 'text', (c) => c.notNull())
    .addColumn('changeCursor', 'text')
    .addColumn('syncedAt', 'text')
    .execute()
  await db.schema
    .createTable('item')
    .addColumn('groupDid', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('view', 'text', (c) => c.notNull())
    .addColumn('pendingAction', 'integer')
    .addPrimaryKeyConstraint('item_pkey', ['groupDid', 'kind', 'key'])
    .execute()
  await db.schema
    .createTable('outbox')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('idempotencyKey', 'text', (c) => c.notNull().unique())
    .addColumn('groupDid', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('lastError', 'text')
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addColumn('updatedAt', 'text', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['outbox', 'item', 'group_row']) await db.schema.dropTable(t).execute()
}
