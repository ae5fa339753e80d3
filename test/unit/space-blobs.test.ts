import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { hostDbAtLatest, hostDbBefore } from '../support/host-migrations.js'
import { blobTakenDown, checkSpaceBlobs, MAX_SPACE_BLOBS_PER_GROUP, readSpaceBlob, storeSpaceBlob } from '../../src/host/spaces/space-blobs.js'
import { prepareRecord, removeRecord, storeRecord } from '../../src/host/spaces/records.js'

const GROUP = 'did:plc:groupaaaaaaaaaaaaaaaaaaa'
const SPACE = { uri: `at://${GROUP}/space/community.lexicon.calendar/self`, groupDid: GROUP }
const T0 = new Date('2030-01-01T10:00:00.000Z')
const later = (ms: number) => new Date(T0.getTime() + ms)
const png = () => Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...randomBytes(32)])

const db = hostDbAtLatest

const KEY = { space: SPACE.uri, repo: GROUP, collection: 'example.groups.eventImage', rkey: '3lbx' }

/** A record of the space naming the image, stored as the host stores every record (storeRecord). */
async function naming(d: Awaited<ReturnType<typeof db>>, cid: string, rkey = KEY.rkey) {
  const json = JSON.stringify({ $type: 'example.groups.eventImage', image: { $type: 'blob', ref: { $link: cid }, mimeType: 'image/png', size: 40 }, createdAt: T0.toISOString() })
  await d.transaction().execute((tx) => storeRecord(tx, { ...KEY, rkey }, { json, cid: 'bafy', blobCids: [cid] }, { now: T0.toISOString() }))
}

describe('images kept for a space', () => {
  it('drops an image no record names once it is an hour old, and keeps one a record names', async () => {
    const d = await db()
    const orphan = await storeSpaceBlob(d, SPACE, Readable.from([png()]), T0)
    const named = await storeSpaceBlob(d, SPACE, Readable.from([png()]), T0)
    await naming(d, named.ref.toString())
    // Within the hour an upload whose record has not come yet is kept.
    await storeSpaceBlob(d, SPACE, Readable.from([png()]), later(30 * 60_000))
    expect(await readSpaceBlob(d, SPACE.uri, orphan.ref.toString())).not.toBeNull()
    await storeSpaceBlob(d, SPACE, Readable.from([png()]), later(2 * 60 * 60_000))
    expect(await readSpaceBlob(d, SPACE.uri, orphan.ref.toString())).toBeNull()
    expect(await readSpaceBlob(d, SPACE.uri, named.ref.toString())).not.toBeNull()
  })

  it('finds the records naming an image by index, not by their text: a record that only quotes the CID does not keep it', async () => {
    const d = await db()
    const quoted = await storeSpaceBlob(d, SPACE, Readable.from([png()]), T0)
    const cid = quoted.ref.toString()
    // A record whose text holds the CID but no blob ref to it.
    const json = JSON.stringify({ $type: 'example.groups.eventImage', note: `"${cid}"`, createdAt: T0.toISOString() })
    await d.transaction().execute((tx) => storeRecord(tx, { ...KEY, rkey: 'quote' }, { json, cid: 'bafq', blobCids: [] }, { now: T0.toISOString() }))
    await storeSpaceBlob(d, SPACE, Readable.from([png()]), later(2 * 60 * 60_000))
    expect(await readSpaceBlob(d, SPACE.uri, cid)).toBeNull()
  })

  it('forgets what a record named once it is rewritten without it or deleted', async () => {
    const d = await db()
    const blob = await storeSpaceBlob(d, SPACE, Readable.from([png()]), T0)
    const cid = blob.ref.toString()
    await naming(d, cid)
    expect(await d.selectFrom('record_blob').select('uri').where('cid', '=', cid).execute()).toHaveLength(1)
    await d.transaction().execute((tx) => removeRecord(tx, KEY))
    expect(await d.selectFrom('record_blob').select('uri').where('cid', '=', cid).execute()).toHaveLength(0)
    expect(await blobTakenDown(d, SPACE.uri, cid)).toBe(false)
  })

  it('counts the bound in the same transaction as the insert: uploads side by side cannot pass it', async () => {
    const d = await db()
    for (let i = 0; i < MAX_SPACE_BLOBS_PER_GROUP - 2; i++) {
      await d.insertInto('space_blob').values({ space: SPACE.uri, cid: `bafk${i}`, groupDid: GROUP, mimeType: 'image/png', size: 10, content: Buffer.from([0]), createdAt: later(60 * 60_000).toISOString() }).execute()
    }
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => storeSpaceBlob(d, SPACE, Readable.from([png()]), later(61 * 60_000))))
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2)
    expect(Number((await d.selectFrom('space_blob').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)).toBe(MAX_SPACE_BLOBS_PER_GROUP)
  })

  it('refuses an image past the group’s bound', async () => {
    const d = await db()
    for (let i = 0; i < MAX_SPACE_BLOBS_PER_GROUP; i++) {
      await d.insertInto('space_blob').values({ space: SPACE.uri, cid: `bafk${i}`, groupDid: GROUP, mimeType: 'image/png', size: 10, content: Buffer.from([0]), createdAt: T0.toISOString() }).execute()
    }
    await expect(storeSpaceBlob(d, SPACE, Readable.from([png()]), later(60_000))).rejects.toMatchObject({ customErrorName: 'BlobQuotaExceeded' })
  })

  it('lets a record carry only an image uploaded for its space, as it was uploaded', async () => {
    const d = await db()
    const blob = await storeSpaceBlob(d, SPACE, Readable.from([png()]), T0)
    await expect(checkSpaceBlobs(d, SPACE.uri, { image: blob })).resolves.toBeUndefined()
    await expect(checkSpaceBlobs(d, `at://${GROUP}/space/example.notes/staff`, { image: blob })).rejects.toThrow(/not uploaded for this space/)
    const json = { $type: 'blob', ref: { $link: blob.ref.toString() }, mimeType: 'image/gif', size: blob.size }
    await expect(checkSpaceBlobs(d, SPACE.uri, { nested: [{ image: json }] })).rejects.toThrow(/not what the record says/)
  })

  it('hides, on upgrade, the images of records already taken down (migration 029)', async () => {
    const { db: d, migrate } = await hostDbBefore('029-blob-takedowns')
    const down = `${SPACE.uri}/${GROUP}/example.groups.eventImage/3lbd`
    const up = `${SPACE.uri}/${GROUP}/example.groups.eventImage/3lbu`
    await d.insertInto('record_blob').values([{ space: SPACE.uri, cid: 'bafkdown', uri: down }, { space: SPACE.uri, cid: 'bafkup', uri: up }]).execute()
    await d.insertInto('takedown').values({ groupDid: GROUP, subjectKey: down, createdBy: 'did:plc:moderator', createdAt: T0.toISOString() }).execute()
    await migrate()
    expect(await blobTakenDown(d, SPACE.uri, 'bafkdown')).toBe(true)
    expect(await blobTakenDown(d, SPACE.uri, 'bafkup')).toBe(false)
  })

  it('names, for the index, the blob refs a record holds and not a CID its text quotes', async () => {
    const d = await db()
    const shown = await storeSpaceBlob(d, SPACE, Readable.from([png()]), T0)
    const quoted = await storeSpaceBlob(d, SPACE, Readable.from([png()]), T0)
    const record = { $type: 'community.lexicon.calendar.event', name: `See ${quoted.ref.toString()}`, description: `"${quoted.ref.toString()}"`, media: [{ $type: 'x.media', image: shown }], createdAt: T0.toISOString() }
    const prepared = await prepareRecord('community.lexicon.calendar.event', '3lbxaaaaaaaa2', record)
    expect(prepared.blobCids).toEqual([shown.ref.toString()])
  })
})
