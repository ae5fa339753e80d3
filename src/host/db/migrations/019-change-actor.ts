import type { Kysely } from 'kysely'

/**
 * Who made each change (issue 25, the audit log): `actor` is the DID of the person whose
 * call made it, also when they acted for the group through a group credential or group
 * session, which `via` then says ('group'). Null for changes made before this, and for
 * those no caller made (the host's own clean-up). The indexes serve the audit log filtered
 * by person, newest first, and someone's past in the group (getMemberHistory: the last
 * change naming them).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('change').addColumn('actor', 'text').execute()
  await db.schema.alterTable('change').addColumn('via', 'text').execute()
  await db.schema.createIndex('change_group_actor').on('change').columns(['groupDid', 'actor', 'seq']).execute()
  await db.schema.createIndex('change_group_subject').on('change').columns(['groupDid', 'subject', 'seq']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('change_group_subject').execute()
  await db.schema.dropIndex('change_group_actor').execute()
  await db.schema.alterTable('change').dropColumn('via').execute()
  await db.schema.alterTable('change').dropColumn('actor').execute()
}
