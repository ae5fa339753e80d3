import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openCacheDb, type CacheDb } from '../../src/main/core/cache/cache-db'
import { putItem } from '../../src/main/core/cache/items'
import { countsOf, matchesFilter, oneEach, ordered } from '../../src/main/core/today/today-order'
import { TodayService } from '../../src/main/core/today/today-service'
import type { TodayItem } from '../../src/shared/ipc/today-views'
import { seedCachedGroup, seedCachedJoinRequests, seedCachedSubjects } from '../support/seed-cache'

const item = (over: Partial<TodayItem> & Pick<TodayItem, 'id' | 'since'>): TodayItem => ({
  kind: 'joinRequest',
  accountDid: 'did:plc:me',
  groupDid: 'did:plc:g1',
  groupName: 'One',
  key: over.id,
  person: null,
  subject: null,
  title: 'Asks to join',
  detail: null,
  startsAt: null,
  pending: false,
  actions: [],
  ...over,
})

describe('Today: ordering and filtering', () => {
  const a = item({ id: 'a', since: '2025-01-03T00:00:00.000Z' })
  const b = item({ id: 'b', since: '2025-01-01T00:00:00.000Z', groupDid: 'did:plc:g2', groupName: 'Two', kind: 'report' })
  const c = item({ id: 'c', since: '2025-01-02T00:00:00.000Z', pending: true })
  const d = item({ id: 'd', since: '2025-01-01T00:00:00.000Z', groupDid: 'did:plc:g2', groupName: 'Two', kind: 'event' })

  it('puts what waited longest first, ties by id, and newest first when asked', () => {
    expect(ordered([a, b, c, d], 'oldest').map((i) => i.id)).toEqual(['b', 'd', 'c', 'a'])
    expect(ordered([a, b, c, d], 'newest').map((i) => i.id)).toEqual(['a', 'c', 'd', 'b'])
  })

  it('narrows by group and by kind, together', () => {
    expect([a, b, c, d].filter((i) => matchesFilter(i, { groupDid: 'did:plc:g2' })).map((i) => i.id)).toEqual(['b', 'd'])
    expect([a, b, c, d].filter((i) => matchesFilter(i, { kind: 'joinRequest' })).map((i) => i.id)).toEqual(['a', 'c'])
    expect([a, b, c, d].filter((i) => matchesFilter(i, { groupDid: 'did:plc:g2', kind: 'event' })).map((i) => i.id)).toEqual(['d'])
  })

  it('counts what waits per group and kind, leaving out items with a decision on its way', () => {
    const counts = countsOf([a, b, c, d])
    expect(counts.waiting).toBe(3)
    expect(counts.groups).toEqual([
      { groupDid: 'did:plc:g2', name: 'Two', waiting: 2 },
      { groupDid: 'did:plc:g1', name: 'One', waiting: 1 },
    ])
    expect(counts.kinds).toEqual([
      { kind: 'joinRequest', waiting: 1 },
      { kind: 'report', waiting: 1 },
      { kind: 'event', waiting: 1 },
    ])
  })

  it('shows a group two accounts reach once, as the account with the most rights there', () => {
    const asMember = { item: { ...a, accountDid: 'did:plc:first' }, rights: 1000 }
    const asOwner = { item: { ...a, accountDid: 'did:plc:second', actions: ['admit' as const] }, rights: 4006 }
    expect(oneEach([asMember, asOwner])).toEqual([asOwner.item])
    expect(oneEach([asOwner, { ...asMember, rights: 4006 }])).toEqual([asOwner.item])
  })
})

describe('Today over the caches', () => {
  let dir: string
  const ME = 'did:plc:meeeeeeeeeeeeeeeeeeeeeee'
  const OTHER = 'did:plc:otherrrrrrrrrrrrrrrrrrrr'
  const G1 = 'did:plc:group1111111111111111111'
  const G2 = 'did:plc:group2222222222222222222'
  const NOW = Date.UTC(2025, 5, 1, 12)
  let caches: CacheDb[] = []
  const service = async (dids = [ME]) => {
    caches = await Promise.all(dids.map((did) => openCacheDb(path.join(dir, 'cache'), did)))
    return new TodayService(async () => dids.map((did, i) => ({ did, cache: caches[i]! })), undefined, () => NOW)
  }
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-today-'))
  })
  afterEach(async () => {
    for (const c of caches) await c.destroy()
    caches = []
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('gathers requests, reports, events within a day and refused actions from every group, oldest first, a page at a time', async () => {
    await seedCachedGroup(dir, ME, G1, { displayName: 'Hikers' })
    await seedCachedGroup(dir, ME, G2, { displayName: 'Readers', roles: ['moderator'], actions: ['mod.read', 'mod.resolve'] })
    await seedCachedJoinRequests(dir, ME, G1, 3)
    // A moderator of G2 sees its reports, not its join requests (a cache holding some does not make them theirs).
    await seedCachedJoinRequests(dir, ME, G2, 2, { prefix: 'notmine' })
    await seedCachedSubjects(dir, ME, G2, 2, { status: (i) => (i === 0 ? 'escalated' : 'open') })
    const today = await service()
    const cache = caches[0]!
    const event = (rkey: string, startsAt: number) => ({ rkey, uri: '', name: `Walk ${rkey}`, startsAt: new Date(startsAt).toISOString(), endsAt: null, description: null, location: 'The park', createdAt: '2025-01-01T00:00:00.000Z', myRsvp: null, rsvps: [], takenDown: false })
    await putItem(cache, G1, 'event', 'soon', event('soon', NOW + 3_600_000), null)
    await putItem(cache, G1, 'event', 'later', event('later', NOW + 3 * 86_400_000), null)
    await putItem(cache, G1, 'event', 'past', event('past', NOW - 3_600_000), null)
    await cache
      .insertInto('outbox')
      .values({ id: 1, idempotencyKey: 'k', groupDid: G1, kind: 'member.eject', payload: '{}', label: 'Remove @bob', state: 'conflict', attempts: 1, lastError: 'Not a member', createdAt: '2024-12-31T00:00:00.000Z', updatedAt: '2024-12-31T00:00:00.000Z', failures: 0, nextAttemptAt: null })
      .execute()

    const page = await today.page({ offset: 0, limit: 4, order: 'oldest' })
    expect(page.total).toBe(7)
    expect(page.waiting).toBe(7)
    expect(page.items.map((i) => [i.kind, i.groupName])).toEqual([
      ['failed', 'Hikers'],
      ['joinRequest', 'Hikers'],
      ['report', 'Readers'],
      ['joinRequest', 'Hikers'],
    ])
    expect(page.items[0]).toMatchObject({ title: 'Remove @bob', detail: 'Not a member', actions: ['retry', 'dismiss'] })
    expect(page.items[2]).toMatchObject({ title: '1 report, escalated', actions: ['resolve'] })
    const events = await today.page({ offset: 0, limit: 10, order: 'oldest', kind: 'event' })
    expect(events.items.map((i) => i.title)).toEqual(['Walk soon'])
    expect(events.matched).toBe(1)
    expect((await today.page({ offset: 0, limit: 10, order: 'oldest', groupDid: G2 })).items.map((i) => i.kind)).toEqual(['report', 'report'])
  })

  it('keeps a decision on its way on screen but out of the count, and moves its revision', async () => {
    await seedCachedGroup(dir, ME, G1, { displayName: 'Hikers' })
    const [first] = await seedCachedJoinRequests(dir, ME, G1, 2)
    const today = await service()
    const before = await today.page({ offset: 0, limit: 10, order: 'oldest' })
    expect(before.waiting).toBe(2)
    await caches[0]!.updateTable('item').set({ pendingAction: 1 }).where('key', '=', first!).execute()
    const after = await today.page({ offset: 0, limit: 10, order: 'oldest' })
    expect(after.waiting).toBe(1)
    expect(after.items.find((i) => i.key === first)?.pending).toBe(true)
    expect(after.revision).toBeGreaterThan(before.revision)
    // Nothing moved: the same set, the same revision.
    expect((await today.page({ offset: 0, limit: 10, order: 'oldest' })).revision).toBe(after.revision)
  })

  it('leaves out a report another moderator has taken, and calls one this account took its own', async () => {
    await seedCachedGroup(dir, ME, G1, { displayName: 'Hikers' })
    const [theirs, mine] = await seedCachedSubjects(dir, ME, G1, 3)
    const today = await service()
    const take = async (key: string, did: string) => {
      const row = await caches[0]!.selectFrom('item').select('view').where('key', '=', key).executeTakeFirstOrThrow()
      const view = { ...JSON.parse(row.view), assignedTo: { did, handle: null, endAt: new Date(NOW + 600_000).toISOString() } }
      await caches[0]!.updateTable('item').set({ view: JSON.stringify(view) }).where('key', '=', key).execute()
    }
    await take(theirs!, OTHER)
    await take(mine!, ME)
    const page = await today.page({ offset: 0, limit: 10, order: 'oldest' })
    expect(page.items.map((i) => [i.key, i.kind])).toEqual([
      [mine, 'assigned'],
      [expect.any(String), 'report'],
    ])
  })

  it('shows a group two signed-in accounts reach once, as the one that may decide', async () => {
    await seedCachedGroup(dir, ME, G1, { displayName: 'Hikers', roles: ['member'], actions: ['admit'] })
    await seedCachedGroup(dir, OTHER, G1, { displayName: 'Hikers' })
    await seedCachedJoinRequests(dir, ME, G1, 2)
    await seedCachedJoinRequests(dir, OTHER, G1, 2)
    const today = await service([ME, OTHER])
    const page = await today.page({ offset: 0, limit: 10, order: 'oldest' })
    expect(page.items.map((i) => i.accountDid)).toEqual([OTHER, OTHER])
    expect(page.waiting).toBe(2)
  })
})
