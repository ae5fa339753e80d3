import fs from 'node:fs'
import path from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { Kysely, SqliteDialect, type Selectable } from 'kysely'
import { Migrator, type Migration } from 'kysely/migration'

/**
 * The local PDS's space records: what members write into groups' spaces on their own
 * PDS (`com.atproto.space.*`). Kept beside the PDS's own databases, in its data
 * directory, but in a file of ours: the released PDS has no tables for spaces.
 */
export interface SpaceRecordTable {
  /** The author: the account whose PDS this is. */
  repo: string
  space: string
  collection: string
  rkey: string
  cid: string
  /** JSON of the record value. */
  value: string
  createdAt: string
  updatedAt: string
}

interface SpaceDatabaseSchema {
  space_record: SpaceRecordTable
}

export type SpaceRecord = Selectable<SpaceRecordTable>

const migrations: Record<string, Migration> = {
  '001-space-record': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('space_record')
        .addColumn('repo', 'text', (c) => c.notNull())
        .addColumn('space', 'text', (c) => c.notNull())
        .addColumn('collection', 'text', (c) => c.notNull())
        .addColumn('rkey', 'text', (c) => c.notNull())
        .addColumn('cid', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('createdAt', 'text', (c) => c.notNull())
        .addColumn('updatedAt', 'text', (c) => c.notNull())
        // One record per (author, space, collection, rkey): a second put overwrites.
        .addPrimaryKeyConstraint('space_record_pkey', ['repo', 'space', 'collection', 'rkey'])
        .execute()
    },
  },
}

export class SpaceStore {
  private constructor(private readonly db: Kysely<SpaceDatabaseSchema>) {}

  /** Opens (creating if needed) `spaces.sqlite` in `dataDir`: WAL, full fsync, like the host. */
  static async open(dataDir: string): Promise<SpaceStore> {
    fs.mkdirSync(dataDir, { recursive: true })
    const sqlite = new SqliteDatabase(path.join(dataDir, 'spaces.sqlite'))
    sqlite.pragma('journal_mode = WAL')
    sqlite.pragma('synchronous = FULL')
    sqlite.pragma('busy_timeout = 5000')
    const db = new Kysely<SpaceDatabaseSchema>({ dialect: new SqliteDialect({ database: sqlite }) })
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest()
    if (error) throw error
    return new SpaceStore(db)
  }

  /** Creates or overwrites; `createdAt` survives an overwrite. */
  async put(rec: Omit<SpaceRecordTable, 'createdAt' | 'updatedAt'>): Promise<void> {
    const now = new Date().toISOString()
    await this.db
      .insertInto('space_record')
      .values({ ...rec, createdAt: now, updatedAt: now })
      .onConflict((oc) =>
        oc.columns(['repo', 'space', 'collection', 'rkey']).doUpdateSet({ cid: rec.cid, value: rec.value, updatedAt: now }),
      )
      .execute()
  }

  /** Whether there was a record to delete. */
  async delete(key: { repo: string; space: string; collection: string; rkey: string }): Promise<boolean> {
    const res = await this.db
      .deleteFrom('space_record')
      .where('repo', '=', key.repo)
      .where('space', '=', key.space)
      .where('collection', '=', key.collection)
      .where('rkey', '=', key.rkey)
      .executeTakeFirst()
    return Number(res.numDeletedRows) > 0
  }

  async get(key: { repo: string; space: string; collection: string; rkey: string }): Promise<SpaceRecord | undefined> {
    return this.db
      .selectFrom('space_record')
      .selectAll()
      .where('repo', '=', key.repo)
      .where('space', '=', key.space)
      .where('collection', '=', key.collection)
      .where('rkey', '=', key.rkey)
      .executeTakeFirst()
  }

  /** Newest rkey first, as the PDS lists a repo's records; `before` is the last rkey seen. */
  async list(q: { repo: string; space: string; collection: string; limit: number; before?: string }): Promise<SpaceRecord[]> {
    let query = this.db
      .selectFrom('space_record')
      .selectAll()
      .where('repo', '=', q.repo)
      .where('space', '=', q.space)
      .where('collection', '=', q.collection)
    if (q.before !== undefined) query = query.where('rkey', '<', q.before)
    return query.orderBy('rkey', 'desc').limit(q.limit).execute()
  }

  async close(): Promise<void> {
    await this.db.destroy()
  }
}
