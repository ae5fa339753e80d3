import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { Kysely, sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { GroupCommitDialect } from '../../src/host/db/group-commit.js'

interface Schema {
  item: { id: string; n: number }
  child: { id: string; parent: string }
}

let dir: string
let file: string
let sqlite: SqliteDatabase.Database
let db: Kysely<Schema>
/** Every statement the dialect ran, in order (COMMITs are what cost an fsync each). */
let ran: string[]

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'group-commit-'))
  file = path.join(dir, 'db.sqlite')
  sqlite = new SqliteDatabase(file)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = FULL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.exec('CREATE TABLE item (id TEXT PRIMARY KEY, n INTEGER NOT NULL)')
  sqlite.exec('CREATE TABLE child (id TEXT PRIMARY KEY, parent TEXT NOT NULL REFERENCES item(id) DEFERRABLE INITIALLY DEFERRED)')
  ran = []
  db = new Kysely<Schema>({
    dialect: new GroupCommitDialect(sqlite, (text) => {
      ran.push(text)
      return sqlite.prepare(text)
    }),
  })
})

afterEach(async () => {
  await db.destroy()
  fs.rmSync(dir, { recursive: true, force: true })
})

/** What another connection (another process, a backup) sees on disk. */
function committedIds(): string[] {
  const other = new SqliteDatabase(file, { readonly: true })
  try {
    return (other.prepare('SELECT id FROM item ORDER BY id').all() as { id: string }[]).map((r) => r.id)
  } finally {
    other.close()
  }
}

const commits = () => ran.filter((s) => s === 'COMMIT').length
const ids = (n: number, prefix = 'i') => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(3, '0')}`)

describe('group commit on SQLite (issue 18)', () => {
  it('commits concurrent transactions together, each acknowledged only once on disk', async () => {
    const seenAtAck: { id: string; seen: string[] }[] = []
    await Promise.all(
      ids(64).map((id) =>
        db.transaction().execute(async (tx) => {
          await tx.insertInto('item').values({ id, n: 1 }).execute()
          await tx.selectFrom('item').select('id').where('id', '=', id).executeTakeFirstOrThrow()
        }).then(() => seenAtAck.push({ id, seen: committedIds() })),
      ),
    )
    expect(committedIds()).toEqual(ids(64))
    // Each writer, when told "done", could already read its row from another connection.
    for (const { id, seen } of seenAtAck) expect(seen).toContain(id)
    expect(commits()).toBeLessThan(64 / 4)
    expect(sqlite.inTransaction).toBe(false)
  })

  it('a failing write rolls back only its own changes, never its neighbours’', async () => {
    await db.insertInto('item').values({ id: 'taken', n: 0 }).execute()
    const results = await Promise.allSettled(
      ['a', 'b', 'bad', 'c'].map((id) =>
        db.transaction().execute(async (tx) => {
          await tx.insertInto('item').values({ id, n: 1 }).execute()
          // The third one then collides: its own first insert must go too.
          if (id === 'bad') await tx.insertInto('item').values({ id: 'taken', n: 2 }).execute()
        }),
      ),
    )
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled'])
    expect(committedIds()).toEqual(['a', 'b', 'c', 'taken'])
    // A thrown error in the handler rolls back the same way.
    await expect(db.transaction().execute(async (tx) => {
      await tx.insertInto('item').values({ id: 'thrown', n: 1 }).execute()
      throw new Error('handler refused')
    })).rejects.toThrow('handler refused')
    expect(committedIds()).not.toContain('thrown')
  })

  it('queries outside a transaction are committed (and answered) with the batch too', async () => {
    await Promise.all(ids(20, 'q').map((id) => db.insertInto('item').values({ id, n: 1 }).execute()))
    expect(committedIds()).toEqual(ids(20, 'q'))
    expect(commits()).toBeLessThanOrEqual(2)
    const row = await db.selectFrom('item').select(sql<number>`count(*)`.as('c')).executeTakeFirstOrThrow()
    expect(row.c).toBe(20)
  })

  it('when the COMMIT itself fails, every writer of the batch is told and nothing is kept', async () => {
    await db.insertInto('item').values({ id: 'before', n: 0 }).execute()
    // A deferred foreign key is checked at COMMIT: one orphan fails the whole batch.
    const results = await Promise.allSettled([
      db.transaction().execute((tx) => tx.insertInto('item').values({ id: 'x', n: 1 }).execute()),
      db.transaction().execute((tx) => tx.insertInto('child').values({ id: 'orphan', parent: 'nobody' }).execute()),
      db.transaction().execute((tx) => tx.insertInto('item').values({ id: 'y', n: 1 }).execute()),
    ])
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected'])
    expect(committedIds()).toEqual(['before'])
    // The connection is sound afterwards.
    await db.transaction().execute((tx) => tx.insertInto('item').values({ id: 'after', n: 1 }).execute())
    expect(committedIds()).toEqual(['after', 'before'])
  })
})
