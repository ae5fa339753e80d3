import type { Kysely } from 'kysely'

/**
 * A group's spaces counted by index (issue 35: spaces per group had no bound): the count
 * createSpace makes before each new space reads only that group's spaces.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('space_group').on('space').column('groupDid').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('space_group').execute()
}
