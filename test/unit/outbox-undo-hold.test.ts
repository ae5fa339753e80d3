import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openCacheDb, type CacheDb } from '../../src/main/core/cache/cache-db'
import { installLogSink } from '../../src/main/core/log/log'
import { FakeClock, fakeActionHandlers, tempCache } from '../support/outbox-fakes'
import { Outbox } from '../../src/main/core/outbox/outbox'
import { prepareAction } from '../../src/main/core/queue/organizer-actions'
import { readItems } from '../../src/main/core/cache/items'
import { undoHoldMs } from '../../src/main/core/outbox/undo-hold'
import { XrpcCallError } from '../../src/main/core/xrpc/xrpc-error'

const A = 'did:plc:groupaaaaaaaaaaaaaaaaaaaa'
const ME = 'did:plc:me'
const ASKER = 'did:plc:askeraaaaaaaaaaaaaaaaaaa'
const OTHER = 'did:plc:otheraaaaaaaaaaaaaaaaaaa'
const HOLD = 6_000

const fakeHandlers = () => fakeActionHandlers(['joinRequest.decide', 'member.revokeRole'])

describe('an action held for Undo before it is sent', () => {
  let cache: Awaited<ReturnType<typeof tempCache>>
  let db: CacheDb
  let clock: FakeClock
  let fake: ReturnType<typeof fakeHandlers>
  let outbox: Outbox
  installLogSink({ write: () => {} })
  afterAll(() => installLogSink(null))

  beforeEach(async () => {
    cache = await tempCache(ME)
    db = cache.db
    clock = new FakeClock()
    fake = fakeHandlers()
    outbox = new Outbox(db, fake.handlers, () => {}, clock)
    for (const did of [ASKER, OTHER]) await db.insertInto('item').values({ groupDid: A, kind: 'joinRequest', key: did, view: JSON.stringify({ did }), pendingAction: null }).execute()
  })
  afterEach(async () => {
    await outbox.close()
    await cache.remove(db)
  })

  const deny = async (did = ASKER, holdMs = HOLD) =>
    (await outbox.enqueueMany([{ ...prepareAction(A, 'joinRequest.decide', { did, decision: 'deny' }), holdMs }]))[0]!
  const rowOf = async (id: number) => (await outbox.list({ includeDone: true })).find((r) => r.id === id)
  const requests = () => readItems<{ did: string }>(db, A, 'joinRequest')

  it('shows at once as pending and held, is not sent during the hold, and goes by itself when it ends', async () => {
    const id = await deny()
    expect(await requests()).toContainEqual({ did: ASKER, pending: true })
    expect(await rowOf(id)).toMatchObject({ state: 'queued', heldUntil: new Date(clock.now() + HOLD).toISOString() })

    await outbox.replay(A)
    clock.advance(HOLD - 1)
    await outbox.replay(A)
    expect(fake.sent).toEqual([])

    clock.advance(1) // the outbox's own wake sends it, with nobody asking
    await expect.poll(async () => (await rowOf(id))?.state).toBe('done')
    expect(fake.sent).toEqual([ASKER])
    expect((await rowOf(id))?.heldUntil).toBeNull()
  })

  it('Undo during the hold (cancel): nothing reaches the host and the request is back', async () => {
    const id = await deny()
    await outbox.replay(A)
    await outbox.cancel(id)
    expect(await rowOf(id)).toBeUndefined()
    expect(await requests()).toContainEqual({ did: ASKER, pending: false })
    clock.advance(HOLD * 2)
    await outbox.replay(A)
    expect(fake.sent).toEqual([])
  })

  it('"Retry now" ends the hold: sent at once, the clock never moving', async () => {
    const id = await deny()
    await outbox.replay(A)
    await outbox.retry(id)
    await outbox.replay(A)
    expect(fake.sent).toEqual([ASKER])
    expect(clock.now()).toBe(Date.parse('2026-11-25T12:00:00Z'))
  })

  it('"Sync now" ends back-offs but not a hold: syncing is not giving up the Undo', async () => {
    const held = await deny()
    await outbox.endBackOffs()
    await outbox.replay(A)
    expect(fake.sent).toEqual([])
    expect((await rowOf(held))?.heldUntil).not.toBeNull()
  })

  it('a back-off is not mistaken for a hold', async () => {
    fake.state.fail = () => new XrpcCallError('example.groups.denyRequest', 503, 'InternalServerError', 'down')
    const id = await deny(ASKER, 0)
    await outbox.replay(A)
    const row = await rowOf(id)
    expect(row?.nextAttemptAt).not.toBeNull()
    expect(row?.heldUntil).toBeNull()
  })

  it('the group’s later actions wait behind a held one, in order', async () => {
    await deny(ASKER)
    await deny(OTHER, 0)
    await outbox.replay(A)
    expect(fake.sent).toEqual([])
    clock.advance(HOLD)
    await expect.poll(() => fake.sent).toEqual([ASKER, OTHER])
  })

  it('Undo of a role taken away gives it back at once, not only after the next sync', async () => {
    await db.insertInto('item').values({ groupDid: A, kind: 'member', key: OTHER, view: JSON.stringify({ did: OTHER, roles: ['member', 'moderator'] }), pendingAction: null }).execute()
    const [id] = await outbox.enqueueMany([{ ...prepareAction(A, 'member.revokeRole', { did: OTHER, role: 'moderator' }), holdMs: HOLD }])
    expect(await readItems(db, A, 'member')).toEqual([{ did: OTHER, roles: ['member'], pending: true }])
    await outbox.cancel(id!)
    expect(await readItems(db, A, 'member')).toEqual([{ did: OTHER, roles: ['member', 'moderator'], pending: false }])
    clock.advance(HOLD)
    await outbox.replay(A)
    expect(fake.sent).toEqual([])
  })

  it('survives a restart: still held and cancellable, and sent once its hold has passed', async () => {
    const kept = await deny(ASKER)
    const undone = await deny(OTHER)
    await outbox.close()
    await db.destroy()
    db = await openCacheDb(cache.dir, ME)
    outbox = new Outbox(db, fake.handlers, () => {}, clock)
    await outbox.recoverInterrupted()
    expect((await rowOf(kept))?.heldUntil).not.toBeNull()
    await outbox.cancel(undone)
    clock.advance(HOLD)
    await outbox.replay(A)
    expect(fake.sent).toEqual([ASKER])
  })
})

describe('the hold the window asks for', () => {
  afterEach(() => {
    delete process.env.CONVENE_UNDO_HOLD_MS
  })
  it('is kept as asked, and only replaced when CONVENE_UNDO_HOLD_MS is set (tests)', () => {
    expect(undoHoldMs(undefined)).toBeUndefined()
    expect(undoHoldMs(6000)).toBe(6000)
    process.env.CONVENE_UNDO_HOLD_MS = '0'
    expect(undoHoldMs(6000)).toBe(0)
    expect(undoHoldMs(undefined)).toBeUndefined()
  })
})
