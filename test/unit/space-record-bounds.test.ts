import { describe, expect, it } from 'vitest'
import type { Kysely } from 'kysely'
import type { HostDatabaseSchema } from '../../src/host/db/schema.js'
import { hostDbAtLatest, hostDbBefore } from '../support/host-migrations.js'
import { MAX_GROUP_RECORD_BYTES_PER_SPACE, MAX_GROUP_RECORDS_PER_SPACE, prepareRecord, removeRecord, storeRecord } from '../../src/host/spaces/records.js'

const GROUP = 'did:plc:boundgroupaaaaaaaaaaaaaa'
const SPACE = `at://${GROUP}/space/example.notes/self`
const NOW = '2030-01-01T10:00:00.000Z'
const NOTE = 'example.notes.note'
const key = (rkey: string) => ({ space: SPACE, repo: GROUP, collection: NOTE, rkey })
const note = (text: string) => prepareRecord(NOTE, 'x', { $type: NOTE, text })

async function withSpace(db: Kysely<HostDatabaseSchema>) {
  await db.insertInto('group').values({ did: GROUP, handle: 'bound.groups.test', displayName: null, description: null, joinPolicy: 'open', rotationKeySealed: 'x', createdAt: NOW, createdBy: null }).execute()
  await db.insertInto('space').values({ uri: SPACE, groupDid: GROUP, type: 'example.notes', skey: 'self', name: 'Notes', readableBy: '["member"]', credentialScopes: '[]', createdAt: NOW, updatedAt: NOW }).execute()
}
const store = async (db: Kysely<HostDatabaseSchema>, rkey: string, text: string) => {
  const prepared = await note(text)
  return db.transaction().execute((tx) => storeRecord(tx, key(rkey), prepared, { now: NOW }))
}
const totals = (db: Kysely<HostDatabaseSchema>) => db.selectFrom('space').select(['recordCount', 'recordBytes']).where('uri', '=', SPACE).executeTakeFirstOrThrow()

describe('what one space keeps of the group’s records (issue 35 #3)', () => {
  it('counts each write and delete, and refuses a record past the count or the size, until some are deleted', async () => {
    const db = await hostDbAtLatest()
    await withSpace(db)
    await store(db, 'a', 'hello')
    const one = await totals(db)
    expect(one.recordCount).toBe(1)
    await store(db, 'a', 'hello again') // an overwrite: still one record, a little bigger
    expect((await totals(db)).recordCount).toBe(1)
    expect((await totals(db)).recordBytes).toBeGreaterThan(one.recordBytes)

    await db.updateTable('space').set({ recordCount: MAX_GROUP_RECORDS_PER_SPACE }).where('uri', '=', SPACE).execute()
    await expect(store(db, 'b', 'one too many')).rejects.toThrow(/at most 50,000 of the group’s records in one space/)
    await store(db, 'a', 'an overwrite adds no record') // still allowed
    await db.transaction().execute((tx) => removeRecord(tx, key('a')))
    expect((await totals(db)).recordCount).toBe(MAX_GROUP_RECORDS_PER_SPACE - 1)
    await store(db, 'b', 'room again')

    await db.updateTable('space').set({ recordCount: 1, recordBytes: MAX_GROUP_RECORD_BYTES_PER_SPACE - 10 }).where('uri', '=', SPACE).execute()
    await expect(store(db, 'c', 'a record of more than ten bytes')).rejects.toThrow(/bytes of the group’s records in one space/)
    // Rewriting one smaller frees room rather than taking it.
    await store(db, 'b', '')
    expect((await totals(db)).recordBytes).toBeLessThan(MAX_GROUP_RECORD_BYTES_PER_SPACE - 10)
  })

  it('fills, on upgrade, the totals of the records already kept (migration 031)', async () => {
    const { db, migrate } = await hostDbBefore('031-space-record-totals')
    await withSpace(db)
    const values = ['{"text":"ä"}', '{"text":"plain"}']
    for (const [i, value] of values.entries()) {
      await db.insertInto('record').values({ uri: `${SPACE}/${GROUP}/${NOTE}/${i}`, space: SPACE, repo: GROUP, collection: NOTE, rkey: String(i), cid: 'bafy', value, createdAt: NOW, updatedAt: NOW }).execute()
    }
    await migrate()
    expect(await totals(db)).toEqual({ recordCount: 2, recordBytes: values.reduce((n, v) => n + Buffer.byteLength(v), 0) })
  })
})
