import { describe, expect, it } from 'vitest'
import { randomBytes } from 'node:crypto'
import SqliteDatabase from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { Migrator, type Migration } from 'kysely/migration'
import * as m014 from '../../src/host/db/migrations/014-member-records-where-read.js'
import type { HostDatabaseSchema } from '../../src/host/db/schema.js'
import { migrationsWith } from '../../src/host/db/index.js'

/** The migrations a host had before 014, as db/index.ts runs them. */
const before014: Record<string, Migration> = Object.fromEntries(Object.entries(migrationsWith(randomBytes(32))).filter(([n]) => n < '014'))

const GROUP = 'did:plc:group'
const space = (type: string) => `at://${GROUP}/space/${type}/self`

describe('migration 014: members’ records kept only where their author reads, never in meta', () => {
  it('drops copies in meta and in spaces none of the author’s roles may read, and keeps the rest', async () => {
    const db = new Kysely<HostDatabaseSchema>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) })
    const migrate = async (migrations: Record<string, Migration>) => {
      const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest()
      if (error) throw error
    }
    await migrate(before014)
    const now = new Date().toISOString()
    await db.insertInto('group').values({ did: GROUP, handle: 'g.test', displayName: null, description: null, joinPolicy: 'open', rotationKeySealed: 'x', createdAt: now }).execute()
    await db
      .insertInto('role')
      .values(['owner', 'member'].map((name) => ({ groupDid: GROUP, name, actions: '[]', assignable: '[]' })))
      .execute()
    const spaces: [string, string[]][] = [
      ['meta', ['owner', 'member']],
      ['members', ['owner', 'member']],
      ['example.owners', ['owner']],
    ]
    await db
      .insertInto('space')
      .values(spaces.map(([type, readableBy]) => ({ uri: space(type), groupDid: GROUP, type, skey: 'self', name: type, readableBy: JSON.stringify(readableBy), credentialScopes: '[]', createdAt: now, updatedAt: now })))
      .execute()
    for (const [did, role] of [
      ['did:plc:owner', 'owner'],
      ['did:plc:member', 'member'],
    ] as const) {
      await db.insertInto('member').values({ groupDid: GROUP, did, joinedAt: now, acceptedAt: null }).execute()
      await db.insertInto('member_role').values({ groupDid: GROUP, did, role }).execute()
      for (const [type] of spaces) {
        await db
          .insertInto('member_record')
          .values({ groupDid: GROUP, space: space(type), repo: did, collection: 'example.note', rkey: 'a', cid: 'c', value: '{}', indexedAt: now })
          .execute()
      }
    }

    await migrate({ ...before014, '014-member-records-where-read': m014 })
    const kept = await db.selectFrom('member_record').select(['space', 'repo']).orderBy('space').orderBy('repo').execute()
    expect(kept).toEqual([
      { space: space('example.owners'), repo: 'did:plc:owner' },
      { space: space('members'), repo: 'did:plc:member' },
      { space: space('members'), repo: 'did:plc:owner' },
    ])
    await db.destroy()
  })
})
