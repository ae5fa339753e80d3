import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import SqliteDatabase from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { Migrator, type Migration } from 'kysely/migration'
import { migrationsWith } from '../../src/host/db/index.js'
import type { HostDatabaseSchema } from '../../src/host/db/schema.js'
import { createWellKnownSpaces } from '../../src/host/spaces/well-known.js'

const all = migrationsWith(randomBytes(32))
const upTo = (last: string): Record<string, Migration> => Object.fromEntries(Object.entries(all).filter(([n]) => n <= last))
const GROUP = 'did:plc:group'

async function migrated(last: string) {
  const db = new Kysely<HostDatabaseSchema>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) })
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => upTo(last) } }).migrateToLatest()
  if (error) throw error
  return db
}

/** A group as hosts before 004 stored it (rotationKeyHex), with two roles. */
async function addGroup(db: Kysely<HostDatabaseSchema>) {
  await (db as unknown as Kysely<{ group: Record<string, string> }>)
    .insertInto('group')
    .values({ did: GROUP, handle: 'g.test', joinPolicy: 'open', rotationKeyHex: 'ab', createdAt: '2026-01-01T00:00:00.000Z' })
    .execute()
  await db.insertInto('role').values(['owner', 'member'].map((name) => ({ groupDid: GROUP, name, actions: '[]', assignable: '[]' }))).execute()
}

const spacesAndIndex = async (db: Kysely<HostDatabaseSchema>) => ({
  spaces: await db.selectFrom('space').select(['uri', 'type', 'skey', 'name', 'readableBy', 'credentialScopes']).orderBy('uri').execute(),
  index: await db.selectFrom('record').select(['uri', 'space', 'repo', 'collection', 'rkey', 'cid', 'value']).orderBy('uri').execute(),
})

describe('migration 004: a group made before well-known spaces gets them', () => {
  it('makes the same spaces and index records, CIDs included, as the host makes for a new group', async () => {
    const old = await migrated('002-membership')
    await addGroup(old)
    const { error } = await new Migrator({ db: old, provider: { getMigrations: async () => upTo('004-spaces') } }).migrateToLatest()
    if (error) throw error
    const fromMigration = await spacesAndIndex(old)

    // The live code, on a database whose group has the same roles.
    const fresh = await migrated('004-spaces')
    await addGroup(fresh)
    // Then every later migration, as the live code only ever runs on the latest schema.
    const latest = await new Migrator({ db: fresh, provider: { getMigrations: async () => all } }).migrateToLatest()
    if (latest.error) throw latest.error
    const createdAt = JSON.parse(fromMigration.index[0]!.value).createdAt as string
    await fresh.transaction().execute((tx) => createWellKnownSpaces(tx, GROUP, createdAt))

    expect(fromMigration.spaces.map((s) => s.type)).toEqual(['members', 'meta'])
    expect(fromMigration.index).toHaveLength(2)
    expect(fromMigration).toEqual(await spacesAndIndex(fresh))
  })
})
