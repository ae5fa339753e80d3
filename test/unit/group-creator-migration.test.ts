import { describe, expect, it } from 'vitest'
import { randomBytes } from 'node:crypto'
import SqliteDatabase from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { Migrator, type Migration } from 'kysely/migration'
import * as m018 from '../../src/host/db/migrations/018-group-creator.js'
import type { HostDatabaseSchema } from '../../src/host/db/schema.js'
import { migrationsWith } from '../../src/host/db/index.js'

/** The migrations a host had before 018, as db/index.ts runs them. */
const before018: Record<string, Migration> = Object.fromEntries(Object.entries(migrationsWith(randomBytes(32))).filter(([n]) => n < '018'))

describe('migration 018: who created each group', () => {
  it('credits an existing group to the member who joined as it was created, or to nobody once they have left', async () => {
    const db = new Kysely<HostDatabaseSchema>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) })
    const migrate = async (migrations: Record<string, Migration>) => {
      const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest()
      if (error) throw error
    }
    await migrate(before018)
    const created = '2026-01-01T00:00:00.000Z'
    const later = '2026-01-02T00:00:00.000Z'
    for (const did of ['did:plc:kept', 'did:plc:left']) {
      await db.insertInto('group').values({ did, handle: `${did.slice(8)}.test`, displayName: null, description: null, joinPolicy: 'open', rotationKeySealed: 'x', createdAt: created }).execute()
    }
    await db
      .insertInto('member')
      .values([
        { groupDid: 'did:plc:kept', did: 'did:plc:joinedlater', joinedAt: later, acceptedAt: null },
        { groupDid: 'did:plc:kept', did: 'did:plc:creator', joinedAt: created, acceptedAt: null },
        { groupDid: 'did:plc:left', did: 'did:plc:joinedlater', joinedAt: later, acceptedAt: null },
      ])
      .execute()

    await migrate({ ...before018, '018-group-creator': m018 })
    const rows = await db.selectFrom('group').select(['did', 'createdBy']).orderBy('did').execute()
    expect(rows).toEqual([
      { did: 'did:plc:kept', createdBy: 'did:plc:creator' },
      { did: 'did:plc:left', createdBy: null },
    ])
    await db.destroy()
  })
})
