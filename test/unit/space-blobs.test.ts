import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { hostDbBefore } from '../support/host-migrations.js'
import { checkSpaceBlobs, MAX_SPACE_BLOBS_PER_GROUP, readSpaceBlob, storeSpaceBlob } from '../../src/host/spaces/space-blobs.js'

const GROUP = 'did:plc:groupaaaaaaaaaaaaaaaaaaa'
const SPACE = { uri: `at://${GROUP}/space/community.lexicon.calendar/self`, groupDid: GROUP }
const T0 = new Date('2030-01-01T10:00:00.000Z')
const later = (ms: number) => new Date(T0.getTime() + ms)
const png = () => Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...randomBytes(32)])

async function db() {
  const { db, migrate } = await hostDbBefore('027-space-blobs')
  await migrate()
  return db
}

/** A record of the space naming the image, as the host stores its JSON. */
async function naming(d: Awaited<ReturnType<typeof db>>, cid: string) {
  const value = JSON.stringify({ $type: 'example.groups.eventImage', image: { $type: 'blob', ref: { $link: cid }, mimeType: 'image/png', size: 40 }, createdAt: T0.toISOString() })
  await d.insertInto('record').values({ uri: `${SPACE.uri}/${GROUP}/example.groups.eventImage/3lbx`, space: SPACE.uri, repo: GROUP, collection: 'example.groups.eventImage', rkey: '3lbx', cid: 'bafy', value, createdAt: '', updatedAt: '' }).execute()
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
})
