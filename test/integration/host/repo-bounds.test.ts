import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { Secp256k1Keypair } from '@atproto/crypto'
import type { BlobRef } from '@atproto/lexicon'
import { beforeEach, describe, expect, it } from 'vitest'
import type { HostDb } from '../../../src/host/db/index.js'
import { groupTransaction } from '../../../src/host/db/group-lock.js'
import { commitWrites, type RepoWrite } from '../../../src/host/repo/commit.js'
import { checkRecord } from '../../../src/host/repo/records.js'
import { MAX_REPO_BLOBS_PER_GROUP, readBlob, storeBlob } from '../../../src/host/repo/blobs.js'
import { MAX_REPO_FRAMES_PER_GROUP, MAX_REPO_RECORD_BYTES_PER_GROUP, MAX_REPO_RECORDS_PER_GROUP, repoTotals } from '../../../src/host/repo/bounds.js'
import { pruneFirehoseLog } from '../../../src/host/change-log-retention.js'
import { keyToBytes } from '../../../src/host/identity/plc.js'
import { groupKeyContext, seal } from '../../../src/host/secrets/sealed.js'
import { useOwnHostDb } from '../../support/own-host-db.js'

/**
 * What a group's public repo keeps, on either store (issue 35 #3: any account owns groups
 * of its own, and their repos took images, records and firehose frames without limit):
 * images are public only once a record names them and dropped when none does, a record
 * may name only images uploaded to the repo, and records and firehose frames are bounded
 * per group, with totals kept exact through commits and the log's pruning.
 */
let db: HostDb
useOwnHostDb({ groupCommit: false }, (opened) => (db = opened))

const HOST_KEY = randomBytes(32)
const POST = 'app.bsky.feed.post'
const T0 = new Date('2030-01-01T10:00:00.000Z')
const later = (ms: number) => new Date(T0.getTime() + ms)
const png = () => Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...randomBytes(32)])

let group: string
beforeEach(async () => {
  group = `did:plc:repobounds${randomBytes(6).toString('hex')}`
  const key = await Secp256k1Keypair.create({ exportable: true })
  await db
    .insertInto('group')
    .values({ did: group, handle: `${group.slice(8)}.test`, displayName: null, description: null, joinPolicy: 'open', rotationKeySealed: seal(HOST_KEY, await keyToBytes(key), groupKeyContext(group)), createdAt: T0.toISOString() })
    .execute()
})

const upload = (at = T0, bytes = png()) => storeBlob(db, group, 'image/png', Readable.from([bytes]), at, (fn) => groupTransaction(db, group, fn))
const post = (rkey: string, text = 'hello', image?: BlobRef | Record<string, unknown>): RepoWrite => ({
  action: 'put',
  collection: POST,
  rkey,
  record: checkRecord(POST, rkey, { $type: POST, text, createdAt: T0.toISOString(), ...(image ? { embed: { $type: 'app.bsky.embed.images', images: [{ alt: '', image }] } } : {}) }),
})
const del = (rkey: string): RepoWrite => ({ action: 'delete', collection: POST, rkey })
const commit = (...writes: RepoWrite[]) => db.transaction().execute((tx) => commitWrites(tx, HOST_KEY, group, writes))
const frames = async () => (await db.selectFrom('repo_event').select('seq').where('groupDid', '=', group).orderBy('seq').execute()).map((r) => r.seq)

describe("a group repo's images", () => {
  it('are served only once a record names them, and no longer once none does', async () => {
    const image = await upload()
    const cid = image.ref.toString()
    expect(await readBlob(db, group, cid), 'an upload no record names yet').toBeNull()
    await commit(post('p1', 'with a picture', image))
    expect((await readBlob(db, group, cid))?.mimeType).toBe('image/png')
    await commit(post('p1', 'picture removed'))
    expect(await readBlob(db, group, cid), 'rewritten without it').toBeNull()
  })

  it('are dropped when no record named them within the hour; one a record names stays', async () => {
    const orphan = await upload(T0)
    const named = await upload(T0)
    await commit(post('p1', 'named', named))
    await upload(later(30 * 60_000))
    expect(await db.selectFrom('repo_blob').select('cid').where('cid', '=', orphan.ref.toString()).executeTakeFirst(), 'within the hour').toBeDefined()
    await upload(later(2 * 60 * 60_000))
    expect(await db.selectFrom('repo_blob').select('cid').where('cid', '=', orphan.ref.toString()).executeTakeFirst()).toBeUndefined()
    expect(await readBlob(db, group, named.ref.toString())).not.toBeNull()
  })

  it('must have been uploaded to the repo, as they were: a record naming other bytes is refused', async () => {
    const image = await upload()
    const never = { $type: 'blob', ref: { $link: 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku' }, mimeType: 'image/png', size: 40 }
    await expect(commit(post('p1', 'x', never))).rejects.toThrow(/was not uploaded to the group's repo/)
    const misdescribed = { $type: 'blob', ref: { $link: image.ref.toString() }, mimeType: 'image/png', size: image.size + 1 }
    await expect(commit(post('p1', 'x', misdescribed))).rejects.toThrow(/not what the record says/)
    expect(await db.selectFrom('repo_record').select('rkey').where('groupDid', '=', group).execute()).toEqual([])
  })

  it(`are bounded per group (${MAX_REPO_BLOBS_PER_GROUP}): the last two places, asked for six times at once, go to two uploads`, async () => {
    const rows = Array.from({ length: MAX_REPO_BLOBS_PER_GROUP - 2 }, (_, i) => ({ groupDid: group, cid: `bafk${i}`, mimeType: 'image/png', size: 10, content: Buffer.from([0]), createdAt: T0.toISOString() }))
    for (let i = 0; i < rows.length; i += 100) await db.insertInto('repo_blob').values(rows.slice(i, i + 100)).execute()
    // Each upload's transaction stays open a moment after its insert, so all six overlap.
    const heldOpen = <R>(fn: (tx: Parameters<Parameters<typeof groupTransaction<R>>[2]>[0]) => Promise<R>) =>
      groupTransaction(db, group, async (tx) => {
        const done = await fn(tx)
        await new Promise((resolve) => setTimeout(resolve, 100))
        return done
      })
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => storeBlob(db, group, 'image/png', Readable.from([png()]), T0, heldOpen)))
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2)
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ customErrorName: 'BlobQuotaExceeded' })
  })
})

describe("a group repo's records", () => {
  it(`are bounded in number (${MAX_REPO_RECORDS_PER_GROUP} a group): a new one past it is refused; rewriting and deleting still work`, async () => {
    await commit(post('p1'))
    await db.updateTable('repo_root').set({ recordCount: MAX_REPO_RECORDS_PER_GROUP }).where('groupDid', '=', group).execute()
    await expect(commit(post('p2'))).rejects.toThrow(/keeps at most 10,000 records in a group's public repo/)
    await commit(post('p1', 'edited'))
    await commit(del('p1'))
    expect((await repoTotals(db, group)).recordCount).toBe(MAX_REPO_RECORDS_PER_GROUP - 1)
    await commit(post('p2'))
  })

  it('are bounded in bytes, counted from each record as committed', async () => {
    await commit(post('p1', 'a'.repeat(1000)))
    const { recordBytes } = await repoTotals(db, group)
    expect(recordBytes).toBeGreaterThan(1000)
    await commit(post('p2', 'short'))
    await commit(del('p1'))
    const after = await repoTotals(db, group)
    expect(after.recordCount).toBe(1)
    expect(after.recordBytes).toBeLessThan(200)
    await db.updateTable('repo_root').set({ recordBytes: MAX_REPO_RECORD_BYTES_PER_GROUP - 50 }).where('groupDid', '=', group).execute()
    await expect(commit(post('p3', 'this one is longer than fifty bytes, encoded'))).rejects.toThrow(/bytes of records in a group's public repo/)
  })
})

describe("a group's firehose frames", () => {
  it('are counted exactly through commits and the log’s pruning', async () => {
    for (const k of ['a', 'b', 'c']) await commit(post(k))
    const stored = await db.selectFrom('repo_event').select('frame').where('groupDid', '=', group).execute()
    expect(await repoTotals(db, group)).toMatchObject({ frameCount: 3, frameBytes: stored.reduce((n, r) => n + r.frame.length, 0) })
    // Another group's newer frame, so the whole log's newest entry (never pruned) is not ours.
    const mine = group
    group = `${mine}x`
    await db.insertInto('group').values({ did: group, handle: 'x.test', displayName: null, description: null, joinPolicy: 'open', rotationKeySealed: seal(HOST_KEY, await keyToBytes(await Secp256k1Keypair.create({ exportable: true })), groupKeyContext(group)), createdAt: T0.toISOString() }).execute()
    await commit(post('z'))
    await pruneFirehoseLog(db, 0)
    expect(await repoTotals(db, mine)).toMatchObject({ frameCount: 0, frameBytes: 0 })
    expect(await repoTotals(db, group)).toMatchObject({ frameCount: 1 })
  })

  it(`past ${MAX_REPO_FRAMES_PER_GROUP} a group, lose the oldest; the newest are kept and sent`, async () => {
    for (const k of ['a', 'b', 'c', 'd']) await commit(post(k))
    const before = await frames()
    // As if the group had made its bound's worth of commits within the log's lifetime.
    await db.updateTable('repo_root').set({ frameCount: MAX_REPO_FRAMES_PER_GROUP }).where('groupDid', '=', group).execute()
    await commit(post('e'))
    const kept = await frames()
    expect(kept.length).toBeLessThan(before.length + 1)
    expect(kept.at(-1), 'the newest frame').toBeGreaterThan(before.at(-1)!)
    expect(kept[0], 'the oldest went first').toBeGreaterThan(before[0]!)
    const totals = await repoTotals(db, group)
    expect(totals.frameCount).toBe(MAX_REPO_FRAMES_PER_GROUP + 1 - (before.length + 1 - kept.length))
  })
})
