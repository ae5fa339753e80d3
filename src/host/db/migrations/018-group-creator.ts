import { sql, type Kysely } from 'kysely'

/**
 * Who created each group, so the host can bound how many groups one account makes
 * (issue 22; `--max-groups-per-account`). Counting owners would not do: an owner who
 * hands the group on or leaves it would get the slot back while the group stays. Groups
 * made before this (seeded ones too, which cannot be told apart) are credited to the
 * member who joined when the group was created (createGroup adds its creator at that
 * instant); to nobody if they have since left.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('group').addColumn('createdBy', 'text').execute()
  await sql`
    UPDATE "group" SET "createdBy" = (
      SELECT m.did FROM member m
      WHERE m."groupDid" = "group".did AND m."joinedAt" = "group"."createdAt"
      ORDER BY m.did LIMIT 1
    )`.execute(db)
  await db.schema.createIndex('group_created_by').on('group').column('createdBy').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('group_created_by').execute()
  await db.schema.alterTable('group').dropColumn('createdBy').execute()
}
