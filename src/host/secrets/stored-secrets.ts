import { randomBytes } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type { HostDatabaseSchema } from '../db/schema.js'
import { isPostgres } from '../db/dialect.js'
import { groupKeyContext, seal, secretContext, unseal, WrongHostKeyError } from './sealed.js'

type Db = Kysely<HostDatabaseSchema>

/** `host_secret` rows that are not secret (kept readable); every other row is sealed. */
export const PUBLIC_HOST_VALUES = new Set(['serviceDid'])

/** A sealed known value: opening it at start tells a wrong host key apart at once, clearly. */
const KEY_CHECK = 'hostKeyCheck'
const KEY_CHECK_PLAINTEXT = Buffer.from('convene host key check', 'utf8')

/** A sealed secret from `host_secret`, or undefined when there is none yet. */
export async function readSecret(db: Db, key: Buffer, name: string): Promise<Buffer | undefined> {
  const row = await db.selectFrom('host_secret').select('value').where('name', '=', name).executeTakeFirst()
  return row ? unseal(key, row.value, secretContext(name)) : undefined
}

export async function insertSecret(db: Db, key: Buffer, name: string, value: Buffer): Promise<void> {
  await db.insertInto('host_secret').values({ name, value: seal(key, value, secretContext(name)) }).execute()
}

/** A 32-byte random secret, made on first use (a concurrent first start keeps the winner's). */
export async function randomSecret(db: Db, key: Buffer, name: string): Promise<Buffer> {
  await db
    .insertInto('host_secret')
    .values({ name, value: seal(key, randomBytes(32), secretContext(name)) })
    .onConflict((oc) => oc.doNothing())
    .execute()
  return (await readSecret(db, key, name))!
}

/**
 * Opens the key-check row with `key` (writing it on a fresh database): a wrong key stops
 * the host at start with a message that says so, not later at its first signature.
 */
export async function checkHostKey(db: Db, key: Buffer): Promise<void> {
  const found = await readSecret(db, key, KEY_CHECK).catch((err: unknown) => {
    if (err instanceof WrongHostKeyError) {
      throw new WrongHostKeyError(`${KEY_CHECK}`)
    }
    throw err
  })
  if (!found) {
    await db
      .insertInto('host_secret')
      .values({ name: KEY_CHECK, value: seal(key, KEY_CHECK_PLAINTEXT, secretContext(KEY_CHECK)) })
      .onConflict((oc) => oc.doNothing())
      .execute()
  } else if (!found.equals(KEY_CHECK_PLAINTEXT)) {
    throw new WrongHostKeyError(KEY_CHECK)
  }
}

/**
 * Re-seals every stored secret: `from` opens a value (null: it is plaintext hex, as
 * before migration 008), `to` seals it. One transaction: a failure (a wrong old key)
 * leaves the database as it was.
 */
export async function resealAll(db: Db, from: Buffer | null, to: Buffer): Promise<{ secrets: number; groups: number }> {
  return db.transaction().execute((tx) => resealIn(tx, from, to))
}

/** `resealAll` inside a transaction the caller holds (migration 008). */
export async function resealIn(tx: Db, from: Buffer | null, to: Buffer): Promise<{ secrets: number; groups: number }> {
  {
    let secrets = 0
    const rows = await tx.selectFrom('host_secret').select(['name', 'value']).execute()
    for (const { name, value } of rows) {
      if (PUBLIC_HOST_VALUES.has(name)) continue
      const plain = from ? unseal(from, value, secretContext(name)) : Buffer.from(value, 'hex')
      await tx.updateTable('host_secret').set({ value: seal(to, plain, secretContext(name)) }).where('name', '=', name).execute()
      secrets++
    }
    const groups = await tx.selectFrom('group').select(['did', 'rotationKeySealed']).execute()
    for (const g of groups) {
      const plain = from ? unseal(from, g.rotationKeySealed, groupKeyContext(g.did)) : Buffer.from(g.rotationKeySealed, 'hex')
      await tx
        .updateTable('group')
        .set({ rotationKeySealed: seal(to, plain, groupKeyContext(g.did)) })
        .where('did', '=', g.did)
        .execute()
    }
    return { secrets, groups: groups.length }
  }
}

/**
 * After re-sealing: zero freed space in pages (`secure_delete`), rebuild the file
 * (`VACUUM`) and fold the WAL back in and truncate it, so the old values (plaintext
 * before migration 008, the old key's ciphertexts after a rotation) are not left in
 * free pages or WAL frames. On PostgreSQL, `VACUUM FULL` rewrites the two tables, so
 * the old rows' versions leave the table files (the server's WAL keeps them until it
 * recycles its segments). Backups taken before still hold them: see the operations notes.
 */
export async function scrubOldValues(db: Db): Promise<void> {
  if (isPostgres(db)) {
    await sql`VACUUM FULL host_secret, "group"`.execute(db)
    return
  }
  await sql`PRAGMA secure_delete = ON`.execute(db)
  await sql`VACUUM`.execute(db)
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db)
}
