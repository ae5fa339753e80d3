import type { Kysely } from 'kysely'

/**
 * Answered invites are no longer kept (issue 35: they had no bound or lifetime): the change
 * log says each was redeemed, revoked or declined, and nothing reads the row again
 * (membership/invites.ts). Those a host kept before go here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const store = db as unknown as Kysely<{ invite: { status: string } }>
  await store.deleteFrom('invite').where('status', '!=', 'outstanding').execute()
}

/** Deleted rows cannot be brought back; the schema is unchanged. */
export async function down(): Promise<void> {}
