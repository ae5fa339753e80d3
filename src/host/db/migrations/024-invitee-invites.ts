import type { Kysely } from 'kysely'

/**
 * A person's own invites across the host's groups (issue 28, listMyInvites): read by
 * invitee, outstanding only, in row order, so a page is one index range however many
 * groups the host keeps. Declining (declineInvite) is a fourth invite status, 'declined';
 * the status column is free text, so no table change is needed for it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('invite_invitee_status').on('invite').columns(['invitee', 'status', 'id']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('invite_invitee_status').execute()
}
