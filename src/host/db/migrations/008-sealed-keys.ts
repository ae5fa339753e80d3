import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import { inTransaction, isPostgres } from './portable.js'

/** The tables this migration changes, as they are once its rename is done. */
interface Tables {
  host_secret: { name: string; value: string }
  group: { did: string; rotationKeySealed: string }
}

/**
 * Keys encrypted at rest (issue 13): the plaintext hex keys and secrets earlier hosts
 * stored are sealed with the host key (src/host/secrets), on the first start that has
 * one. The group key column is renamed to say what it now holds. The migration needs
 * the key, so it is made per start (db/index.ts). `down` is refused: it would write the
 * keys back in plain.
 *
 * Frozen: the sealing of secrets/sealed.ts as it was then (format `v1:`, AES-256-GCM,
 * the row's context as additional data) is copied in, on the WebCrypto global, which
 * needs no import; secrets/sealed.ts opens what it makes.
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
        const tx = untyped as Kysely<Tables>
        await tx.schema.alterTable('group').renameColumn('rotationKeyHex', 'rotationKeySealed').execute()
        const secrets = await tx.selectFrom('host_secret').select(['name', 'value']).where('name', '!=', 'serviceDid').execute()
        if (secrets.some((r) => r.value.startsWith(VERSION))) throw new Error('migration 008: host.sqlite already holds sealed secrets')
        for (const { name, value } of secrets) {
          const sealed = await seal(hostKey, Buffer.from(value, 'hex'), `host_secret:${name}`)
          await tx.updateTable('host_secret').set({ value: sealed }).where('name', '=', name).execute()
        }
        for (const g of await tx.selectFrom('group').select(['did', 'rotationKeySealed']).execute()) {
          const sealed = await seal(hostKey, Buffer.from(g.rotationKeySealed, 'hex'), `group:${g.did}:rotationKey`)
          await tx.updateTable('group').set({ rotationKeySealed: sealed }).where('did', '=', g.did).execute()
        }
      })
    },
    async down(): Promise<void> {
      throw new Error('migration 008 cannot be undone: it would write the host’s keys back in plain')
    },
  }
}

const VERSION = 'v1:'
const IV_BYTES = 12
const TAG_BYTES = 16

/** `v1:` + base64(iv ‖ tag ‖ ciphertext), a fresh random IV per value, `context` bound in as AAD. */
async function seal(key: Buffer, plaintext: Buffer, context: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES))
  const aesKey = await crypto.subtle.importKey('raw', key, 'AES-GCM', false, ['encrypt'])
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: Buffer.from(context, 'utf8'), tagLength: TAG_BYTES * 8 }, aesKey, plaintext))
  // WebCrypto appends the tag to the ciphertext; the stored form puts it first.
  const ciphertext = sealed.subarray(0, sealed.length - TAG_BYTES)
  const tag = sealed.subarray(sealed.length - TAG_BYTES)
  return VERSION + Buffer.concat([iv, tag, ciphertext]).toString('base64')
}
