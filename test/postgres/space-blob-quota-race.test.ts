import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { HostDb } from '../../src/host/db/index.js'
import { groupTransaction } from '../../src/host/db/group-lock.js'
import { MAX_SPACE_BLOBS_PER_GROUP, storeSpaceBlob } from '../../src/host/spaces/space-blobs.js'
import { useOwnHostDb } from '../support/own-host-db.js'

/**
 * The group's image bound with uploads side by side (issue 35 #13), on PostgreSQL, where
 * each upload's transaction has a connection of its own: counted and inserted under the
 * group's lock, as uploadSpaceBlob does, so the uploads in flight cannot pass it by their
 * number. (test/unit/space-blobs.test.ts shows the same on SQLite.)
 */
let db: HostDb
useOwnHostDb({}, (d) => (db = d))

const GROUP = 'did:plc:quotaracegroup'
const SPACE = { uri: `at://${GROUP}/space/community.lexicon.calendar/self`, groupDid: GROUP }
const png = () => Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...randomBytes(32)])

describe('the last two places for images, asked for six times at once', () => {
  it('go to exactly two uploads', async () => {
    const now = new Date()
    const rows = Array.from({ length: MAX_SPACE_BLOBS_PER_GROUP - 2 }, (_, i) => ({ space: SPACE.uri, cid: `bafk${i}`, groupDid: GROUP, mimeType: 'image/png', size: 10, content: Buffer.from([0]), createdAt: now.toISOString() }))
    await db.insertInto('space_blob').values(rows).execute()
    // Each upload's transaction stays open a moment after its insert, so all six overlap
    // for certain: without the lock each would count the places its neighbours took as free.
    const heldOpen: Parameters<typeof storeSpaceBlob>[4] = (fn) =>
      groupTransaction(db, GROUP, async (tx) => {
        const done = await fn(tx)
        await new Promise((resolve) => setTimeout(resolve, 150))
        return done
      })
    const uploads = Array.from({ length: 6 }, () => storeSpaceBlob(db, SPACE, Readable.from([png()]), now, heldOpen))
    const results = await Promise.allSettled(uploads)
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2)
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ customErrorName: 'BlobQuotaExceeded' })
    const held = await db.selectFrom('space_blob').select((eb) => eb.fn.countAll<number>().as('n')).where('groupDid', '=', GROUP).executeTakeFirstOrThrow()
    expect(Number(held.n)).toBe(MAX_SPACE_BLOBS_PER_GROUP)
  })
})
