import type { Kysely } from 'kysely'

/**
 * The group sign-in's state (issue 14, decisions 6.6), all of it in the database so that
 * several host processes behind one address share it:
 * - `oauth_request`: a pushed authorization request (RFC 9126) from its PAR until its
 *   code is exchanged, with what the sign-in page learnt on the way (the person, their
 *   roles, the narrowed scope) and the hash of the one-time code;
 * - `oauth_session`: a granted session for a group DID (its refresh token's hash,
 *   rotated on each use, and the code it came from, so a replayed code revokes it);
 * - `oauth_upstream`: the host's own sign-in state and sessions at people's PDSes
 *   (`@atproto/oauth-client-node`'s state and session stores).
 * Times are Unix seconds (integers), JSON in text columns: portable to PostgreSQL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oauth_request')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('clientId', 'text', (c) => c.notNull())
    .addColumn('clientMetadata', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('jkt', 'text', (c) => c.notNull())
    .addColumn('groupDid', 'text', (c) => c.notNull())
    .addColumn('deviceHash', 'text')
    .addColumn('csrf', 'text', (c) => c.notNull())
    .addColumn('personDid', 'text')
    .addColumn('personHandle', 'text')
    .addColumn('roles', 'text')
    .addColumn('scope', 'text')
    .addColumn('codeHash', 'text', (c) => c.unique())
    .addColumn('expiresAt', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('oauth_request_expires').on('oauth_request').column('expiresAt').execute()

  await db.schema
    .createTable('oauth_session')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('groupDid', 'text', (c) => c.notNull())
    .addColumn('personDid', 'text', (c) => c.notNull())
    .addColumn('clientId', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('jkt', 'text', (c) => c.notNull())
    .addColumn('codeHash', 'text', (c) => c.notNull().unique())
    .addColumn('refreshHash', 'text', (c) => c.notNull().unique())
    .addColumn('createdAt', 'integer', (c) => c.notNull())
    .addColumn('expiresAt', 'integer', (c) => c.notNull())
    .addColumn('revokedAt', 'integer')
    .execute()
  await db.schema.createIndex('oauth_session_expires').on('oauth_session').column('expiresAt').execute()

  await db.schema
    .createTable('oauth_upstream')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('expiresAt', 'integer', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('oauth_upstream').execute()
  await db.schema.dropTable('oauth_session').execute()
  await db.schema.dropTable('oauth_request').execute()
}
