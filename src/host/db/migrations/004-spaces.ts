import type { Kysely, Transaction } from 'kysely'
import type { HostDatabaseSchema } from '../schema.js'
import { inTransaction } from '../dialect.js'
import { createWellKnownSpaces } from '../../spaces/well-known.js'

/**
 * Groups created before the host made well-known spaces get their `meta` and `members`
 * spaces (and index records) now, so every group has them. Seen DPoP proof ids are
 * pruned by expiry, hence the index. One transaction, as in 002.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('dpop_jti_expires').on('dpop_jti').column('expiresAt').execute()
  await inTransaction(db, async (untyped) => {
    // A Transaction either way: ours on SQLite, the migration's on PostgreSQL.
    const tx = untyped as unknown as Transaction<HostDatabaseSchema>
    const now = new Date().toISOString()
    const groups = await tx.selectFrom('group').select('did').execute()
    for (const g of groups) await createWellKnownSpaces(tx, g.did, now)
  })
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('dpop_jti_expires').execute()
}
