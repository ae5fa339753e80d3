import { describe, expect, it } from 'vitest'
import { randomBytes } from 'node:crypto'
import SqliteDatabase from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { Migrator, type Migration } from 'kysely/migration'
import * as m001 from '../../src/host/db/migrations/001-init.js'
import * as m002 from '../../src/host/db/migrations/002-membership.js'
import * as m004 from '../../src/host/db/migrations/004-spaces.js'
import * as m005 from '../../src/host/db/migrations/005-member-records.js'
import * as m006 from '../../src/host/db/migrations/006-service-jti.js'
import * as m007 from '../../src/host/db/migrations/007-bans.js'
import { sealedKeysMigration } from '../../src/host/db/migrations/008-sealed-keys.js'
import * as m009 from '../../src/host/db/migrations/009-oauth.js'
import * as m010 from '../../src/host/db/migrations/010-moderation.js'
import * as m012 from '../../src/host/db/migrations/012-rate-counters.js'
import * as m014 from '../../src/host/db/migrations/014-member-records-where-read.js'
import * as m015 from '../../src/host/db/migrations/015-bounded-tables.js'
import * as m018 from '../../src/host/db/migrations/018-group-creator.js'
import type { HostDatabaseSchema } from '../../src/host/db/schema.js'

const before018: Record<string, Migration> = {
  '001-init': m001,
  '002-membership': m002,
  '004-spaces': m004,
  '005-member-records': m005,
  '006-service-jti': m006,
  '007-bans': m007,
  '008-sealed-keys': sealedKeysMigration(randomBytes(32)),
  '009-oauth': m009,
  '010-moderation': m010,
  '012-rate-counters': m012,
  '014-member-records-where-read': m014,
  '015-bounded-tables': m015,
}

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
