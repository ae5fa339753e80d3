import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { HostDatabaseSchema } from '../schema.js'
import { resealIn } from '../../secrets/stored-secrets.js'
import { isSealed } from '../../secrets/sealed.js'
import { inTransaction, isPostgres } from '../dialect.js'

/**
 * Keys encrypted at rest (issue 13): the plaintext hex keys and secrets earlier hosts
 * stored are sealed with the host key (src/host/secrets), on the first start that has
 * one. The group key column is renamed to say what it now holds. The migration needs
 * the key, so it is made per start (db/index.ts). `down` is refused: it would write the
 * keys back in plain.
 */
export function sealedKeysMigration(hostKey: Buffer): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // Freed cell space is zeroed as the values are rewritten; db/index.ts then scrubs
      // the file and the WAL (scrubOldValues). SQLite only: a new PostgreSQL database
      // has no plaintext keys to scrub.
      if (!isPostgres(db)) await sql`PRAGMA secure_delete = ON`.execute(db)
      // One transaction (Kysely runs SQLite migrations without one): the rename and the
      // sealing happen together or not at all.
      await inTransaction(db, async (untyped) => {
        const tx = untyped as Kysely<HostDatabaseSchema>
        await tx.schema.alterTable('group').renameColumn('rotationKeyHex', 'rotationKeySealed').execute()
        const rows = await tx.selectFrom('host_secret').select('value').where('name', '!=', 'serviceDid').execute()
        if (rows.some((r) => isSealed(r.value))) throw new Error('migration 008: host.sqlite already holds sealed secrets')
        await resealIn(tx, null, hostKey)
      })
    },
    async down(): Promise<void> {
      throw new Error('migration 008 cannot be undone: it would write the host’s keys back in plain')
    },
  }
}
