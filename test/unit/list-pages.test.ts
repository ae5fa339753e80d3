import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCacheDb, type CacheDb } from '../../src/main/core/cache/cache-db'
import { putItem } from '../../src/main/core/cache/items'
import { ListPages } from '../../src/main/core/reading/list-pages'
import { memberList } from '../../src/main/core/reading/member-list'
import { joinRequestList } from '../../src/main/core/reading/join-request-list'

const GROUP = 'did:plc:group'
const ROLES = ['owner', 'admin', 'moderator', 'member']
const members = memberList(ROLES)

describe('long lists a page at a time, from a real SQLite cache', () => {
  let dir: string
  let cache: CacheDb
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-list-pages-'))
    cache = await openCacheDb(dir, 'did:plc:me')
    await cache.transaction().execute(async (tx) => {
      for (let i = 0; i < 1000; i++) {
        const did = `did:plc:m${String(i).padStart(4, '0')}`
        await putItem(tx, GROUP, 'member', did, { did, handle: i % 2 ? null : `p${i}.test`, roles: ['member'], joinedAt: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(), accepted: false }, null)
      }
      await putItem(tx, GROUP, 'member', 'did:plc:late-owner', { did: 'did:plc:late-owner', handle: 'boss.test', roles: ['member', 'owner'], joinedAt: '2026-01-01T00:00:00.000Z', accepted: true }, null)
    })
  })
  afterAll(async () => {
    await cache.destroy()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('sorts owners first, then by when people joined, and cuts the page asked for', async () => {
    const pages = new ListPages()
    const first = await pages.page(cache, 'me', GROUP, members, { offset: 0, limit: 3 })
    expect(first.items.map((m) => m.did)).toEqual(['did:plc:late-owner', 'did:plc:m0000', 'did:plc:m0001'])
    expect(first).toMatchObject({ total: 1001, matched: 1001, offset: 0 })
    const last = await pages.page(cache, 'me', GROUP, members, { offset: 999, limit: 100 })
    expect(last.items.map((m) => m.did)).toEqual(['did:plc:m0998', 'did:plc:m0999'])
  })

  it('searches DIDs and handles in part, any case, with or without @', async () => {
    const pages = new ListPages()
    const byHandle = await pages.page(cache, 'me', GROUP, members, { q: '@P42.', offset: 0, limit: 10 })
    expect(byHandle.items.map((m) => m.handle)).toEqual(['p42.test'])
    expect(byHandle).toMatchObject({ total: 1001, matched: 1 })
    const byDid = await pages.page(cache, 'me', GROUP, members, { q: 'm099', offset: 0, limit: 100 })
    expect(byDid.matched).toBe(10)
  })

  it('sees every change to the cached members, whoever wrote it, through the revision', async () => {
    const pages = new ListPages()
    const before = await pages.page(cache, 'me', GROUP, members, { offset: 0, limit: 2 })
    // A queued action marks a row pending: an update the sorted copy must not miss.
    await cache.updateTable('item').set({ pendingAction: 7 }).where('key', '=', 'did:plc:m0000').execute()
    const after = await pages.page(cache, 'me', GROUP, members, { offset: 0, limit: 2 })
    expect(after.revision).toBeGreaterThan(before.revision)
    expect(after.items[1]).toMatchObject({ did: 'did:plc:m0000', pending: true })
    await cache.deleteFrom('item').where('key', '=', 'did:plc:late-owner').execute()
    const gone = await pages.page(cache, 'me', GROUP, members, { offset: 0, limit: 1 })
    expect(gone.items[0]!.did).toBe('did:plc:m0000')
    expect(gone.total).toBe(1000)
    // Unchanged: the same revision, read from the kept copy.
    expect((await pages.page(cache, 'me', GROUP, members, { offset: 0, limit: 1 })).revision).toBe(gone.revision)
  })

  it('re-sorts members when the group’s order of roles changes', async () => {
    await putItem(cache, GROUP, 'member', 'did:plc:mod', { did: 'did:plc:mod', handle: null, roles: ['moderator'], joinedAt: '2027-01-01T00:00:00.000Z', accepted: true }, null)
    const pages = new ListPages()
    const byRank = await pages.page(cache, 'me', GROUP, members, { offset: 0, limit: 1 })
    expect(byRank.items[0]!.did).toBe('did:plc:mod')
    // The same cached list (same revision), read for a group whose roles are ordered otherwise.
    const reordered = await pages.page(cache, 'me', GROUP, memberList(['member', 'moderator']), { offset: 0, limit: 1 })
    expect(reordered.revision).toBe(byRank.revision)
    expect(reordered.items[0]!.did).toBe('did:plc:m0000')
    await cache.deleteFrom('item').where('key', '=', 'did:plc:mod').execute()
  })

  it('keeps join requests as a queue, oldest first, searched by DID or message, apart from members', async () => {
    await cache.transaction().execute(async (tx) => {
      for (let i = 0; i < 30; i++) {
        const did = `did:plc:r${String(i).padStart(2, '0')}`
        // Written newest first: the order must come from when they asked, not from the keys.
        const createdAt = new Date(Date.UTC(2026, 0, 1, 0, 30 - i)).toISOString()
        await putItem(tx, GROUP, 'joinRequest', did, { id: did, did, createdAt, message: i % 3 ? null : `From the Meetup #${i}` }, i === 0 ? 1 : null)
      }
    })
    const pages = new ListPages()
    const first = await pages.page(cache, 'me', GROUP, joinRequestList, { offset: 0, limit: 2 })
    expect(first.items.map((r) => r.did)).toEqual(['did:plc:r29', 'did:plc:r28'])
    expect(first).toMatchObject({ total: 30, matched: 30 })
    const meetup = await pages.matching(cache, 'me', GROUP, joinRequestList, '  meetup ')
    expect(meetup.items).toHaveLength(10)
    expect(meetup.items.find((r) => r.did === 'did:plc:r00')?.pending).toBe(true)
    // The members list is its own: 1,000 members still, untouched by the requests.
    expect((await pages.page(cache, 'me', GROUP, members, { offset: 0, limit: 1 })).total).toBe(1000)
  })

  it('patches a kept list from the change log after a few writes, to exactly what a full read gives', async () => {
    const pages = new ListPages()
    await pages.page(cache, 'me', GROUP, members, { offset: 0, limit: 1 })
    // A mix of what syncs and actions do: people join with and without roles, leave,
    // get a role, get marked pending, all on a list of 1,000.
    await cache.transaction().execute(async (tx) => {
      await putItem(tx, GROUP, 'member', 'did:plc:new-admin', { did: 'did:plc:new-admin', handle: 'na.test', roles: ['admin'], joinedAt: '2025-06-01T00:00:00.000Z', accepted: true }, null)
      await putItem(tx, GROUP, 'member', 'did:plc:new-member', { did: 'did:plc:new-member', handle: null, roles: ['member'], joinedAt: '2025-01-01T00:05:30.000Z', accepted: false }, null)
      await putItem(tx, GROUP, 'member', 'did:plc:m0500', { did: 'did:plc:m0500', handle: 'p500.test', roles: ['member', 'moderator'], joinedAt: new Date(Date.UTC(2025, 0, 1, 0, 500)).toISOString(), accepted: true }, null)
    })
    await cache.deleteFrom('item').where('key', 'in', ['did:plc:m0002', 'did:plc:m0999']).execute()
    await cache.updateTable('item').set({ pendingAction: 3 }).where('key', '=', 'did:plc:m0007').execute()
    let reads = 0
    const counting = { ...members, keyOf: (m: Parameters<typeof members.keyOf>[0]) => (reads++, m.did) }
    const patchedPage = await pages.page(cache, 'me', GROUP, counting, { offset: 0, limit: 2000 })
    // Patched (each kept row's key looked at once), not read and sorted again.
    expect(reads).toBe(1000) // the kept copy's length
    const fullPage = await new ListPages().page(cache, 'me', GROUP, members, { offset: 0, limit: 2000 })
    expect(patchedPage.items.map((m) => [m.did, m.roles.join(), m.pending])).toEqual(fullPage.items.map((m) => [m.did, m.roles.join(), m.pending]))
    expect(patchedPage.items.slice(0, 3).map((m) => m.did)).toEqual(['did:plc:new-admin', 'did:plc:m0500', 'did:plc:m0000'])
    expect(patchedPage.total).toBe(1000) // two joined, two left
  })

  it('reads the list whole when more changed than the log keeps, and sorts a changed list once for readers arriving together', async () => {
    const pages = new ListPages()
    await pages.page(cache, 'me', GROUP, members, { offset: 0, limit: 1 })
    // 1,001 steps: one more than the log keeps.
    await cache.updateTable('item').set({ pendingAction: 4 }).where('kind', '=', 'member').execute()
    await cache.updateTable('item').set({ pendingAction: 4 }).where('key', '=', 'did:plc:m0001').execute()
    let reads = 0
    const counting = { ...members, keyOf: (m: Parameters<typeof members.keyOf>[0]) => (reads++, m.did) }
    const [a, b] = await Promise.all([0, 100].map((offset) => pages.page(cache, 'me', GROUP, counting, { offset, limit: 100 })))
    expect(reads).toBe(0)
    expect(a!.revision).toBe(b!.revision)
    expect([...a!.items, ...b!.items]).toHaveLength(200)
    expect([...a!.items, ...b!.items].every((m) => m.pending)).toBe(true)
    // One more change: both readers wait for the same patch (one pass over the kept keys).
    await cache.updateTable('item').set({ pendingAction: null }).where('kind', '=', 'member').where('key', '=', 'did:plc:m0001').execute()
    await Promise.all([0, 100].map((offset) => pages.page(cache, 'me', GROUP, counting, { offset, limit: 100 })))
    expect(reads).toBe(1000)
    await cache.updateTable('item').set({ pendingAction: null }).where('kind', '=', 'member').execute()
  })

  it('brings the lists someone looked at up to date ahead of the next read when warmed', async () => {
    let reads = 0
    const counting = { ...members, keyOf: (m: Parameters<typeof members.keyOf>[0]) => (reads++, m.did) }
    const pages = new ListPages()
    const before = await pages.page(cache, 'me', GROUP, counting, { offset: 0, limit: 1 })
    await cache.updateTable('item').set({ pendingAction: 5 }).where('key', '=', 'did:plc:m0003').execute()
    pages.warm(cache, 'me', GROUP)
    await expect.poll(() => reads, { timeout: 2_000 }).toBe(before.total)
    const after = await pages.page(cache, 'me', GROUP, counting, { offset: 0, limit: 10 })
    expect(reads).toBe(before.total)
    expect(after.revision).toBeGreaterThan(before.revision)
    expect(after.items.find((m) => m.did === 'did:plc:m0003')?.pending).toBe(true)
  })
})
