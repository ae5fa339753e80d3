import { sql, type Kysely } from 'kysely'
import { addAutoId, inTransaction } from './portable.js'

/**
 * Invites get their own key. An invite's address is not unique: the spec's
 * `pending:<did>` form names only the invitee, so two groups inviting the same person,
 * or one group inviting again after a revoke, share it. SQLite cannot change a primary
 * key in place, so the table is rebuilt. At most one invite per person per group is
 * outstanding, which also makes a duplicate from two racing inviters impossible.
 *
 * Kysely runs SQLite migrations outside a transaction; this one opens its own, so a host
 * killed halfway through the rebuild starts again from the old table, not half a new one.
 * (On PostgreSQL the migration's own transaction does it: db/dialect.ts.)
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await inTransaction(db, (tx) => rebuildInvites(tx))
}

async function rebuildInvites(db: Kysely<unknown>): Promise<void> {
  await addAutoId(db, db.schema.createTable('invite_next'), 'id')
    .addColumn('uri', 'text', (c) => c.notNull())
    .addColumn('groupDid', 'text', (c) => c.notNull().references('group.did'))
    .addColumn('invitee', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('createdBy', 'text', (c) => c.notNull())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addColumn('expiresAt', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .execute()
  await sql`INSERT INTO invite_next (uri, "groupDid", invitee, message, "createdBy", "createdAt", "expiresAt", status)
    SELECT uri, "groupDid", invitee, message, "createdBy", "createdAt", "expiresAt", status FROM invite ORDER BY "createdAt"`.execute(db)
  await db.schema.dropTable('invite').execute()
  await db.schema.alterTable('invite_next').renameTo('invite').execute()
  await db.schema.createIndex('invite_group_invitee').on('invite').columns(['groupDid', 'invitee', 'status']).execute()
  await sql`CREATE UNIQUE INDEX invite_one_outstanding ON invite ("groupDid", invitee) WHERE status = 'outstanding'`.execute(db)
  // Pending join requests are listed oldest first, per group.
  await db.schema.createIndex('join_request_group_status').on('join_request').columns(['groupDid', 'status', 'createdAt', 'id']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('join_request_group_status').execute()
  await db.schema.dropIndex('invite_one_outstanding').execute()
  await db.schema.dropIndex('invite_group_invitee').execute()
  await db.schema.alterTable('invite').renameTo('invite_prev').execute()
  await db.schema
    .createTable('invite')
    .addColumn('uri', 'text', (c) => c.primaryKey())
    .addColumn('groupDid', 'text', (c) => c.notNull().references('group.did'))
    .addColumn('invitee', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('createdBy', 'text', (c) => c.notNull())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addColumn('expiresAt', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .execute()
  // Rows whose address repeats cannot go back under the old key; keep the newest.
  await sql`INSERT OR REPLACE INTO invite SELECT uri, "groupDid", invitee, message, "createdBy", "createdAt", "expiresAt", status FROM invite_prev ORDER BY id`.execute(db)
  await db.schema.dropTable('invite_prev').execute()
  await db.schema.createIndex('invite_group_invitee').on('invite').columns(['groupDid', 'invitee', 'status']).execute()
}
