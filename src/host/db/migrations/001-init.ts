import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('host_secret')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('group')
    .addColumn('did', 'text', (c) => c.primaryKey())
    .addColumn('handle', 'text', (c) => c.notNull().unique())
    .addColumn('displayName', 'text')
    .addColumn('description', 'text')
    .addColumn('joinPolicy', 'text', (c) => c.notNull())
    .addColumn('rotationKeyHex', 'text', (c) => c.notNull())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('role')
    .addColumn('groupDid', 'text', (c) => c.notNull().references('group.did'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('actions', 'text', (c) => c.notNull())
    .addColumn('assignable', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('role_pkey', ['groupDid', 'name'])
    .execute()
  await db.schema
    .createTable('member')
    .addColumn('groupDid', 'text', (c) => c.notNull().references('group.did'))
    .addColumn('did', 'text', (c) => c.notNull())
    .addColumn('joinedAt', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('member_pkey', ['groupDid', 'did'])
    .execute()
  await db.schema
    .createTable('member_role')
    .addColumn('groupDid', 'text', (c) => c.notNull())
    .addColumn('did', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('member_role_pkey', ['groupDid', 'did', 'role'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['member_role', 'member', 'role', 'group', 'host_secret']) {
    await db.schema.dropTable(t).execute()
  }
}
