import type { Kysely } from 'kysely'

/**
 * Bans (decisions 6.3): `ejectMember` with `ban` keeps the person out until someone
 * holding `eject` lifts it. One row per person per group; lifting deletes it.
 *
 * Rate-limit counters are not kept here: they live in memory (src/host/limits), since
 * counting in SQLite would add a synced write to every request (docs/host.md, Limits).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ban')
    .addColumn('groupDid', 'text', (c) => c.notNull().references('group.did'))
    .addColumn('did', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('createdBy', 'text', (c) => c.notNull())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ban_pk', ['groupDid', 'did'])
    .execute()
  // listBans pages newest first.
  await db.schema.createIndex('ban_group_created').on('ban').columns(['groupDid', 'createdAt', 'did']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ban').execute()
}
