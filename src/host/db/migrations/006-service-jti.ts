import type { Kysely } from 'kysely'

/**
 * Service-auth token ids already accepted by `getGroupAuth`, which takes each token once
 * (decisions section 6.2). `jti` is `<issuer DID> <token jti>`; `expiresAt` the token's
 * `exp` in seconds, after which the row is pruned (the token is refused as expired).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('service_jti')
    .addColumn('jti', 'text', (c) => c.primaryKey())
    .addColumn('expiresAt', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('service_jti_expires').on('service_jti').column('expiresAt').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('service_jti').execute()
}
