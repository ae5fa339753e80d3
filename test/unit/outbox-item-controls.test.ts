import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openCacheDb, type CacheDb } from '../../src/main/core/cache/cache-db'
import { installLogSink } from '../../src/main/core/log/log'
import { FakeClock, fakeActionHandlers, tempCache } from '../support/outbox-fakes'
import { Outbox } from '../../src/main/core/outbox/outbox'
import { prepareAction, queuedAction } from '../../src/main/core/queue/organizer-actions'
import { readItems } from '../../src/main/core/cache/items'
import { UserFacingError } from '../../src/main/core/ipc/errors'
import { XrpcCallError } from '../../src/main/core/xrpc/xrpc-error'

const A = 'did:plc:groupaaaaaaaaaaaaaaaaaaaa'
const ME = 'did:plc:me'
const ASKER = 'did:plc:askeraaaaaaaaaaaaaaaaaaa'

const notAnswering = () => new XrpcCallError('example.groups.admitMember', 0, 'HostNotAnswering', 'no answer within 15000 ms')

const fakeHandlers = () => fakeActionHandlers(['joinRequest.decide', 'event.create', 'member.grantRole', 'member.revokeRole'], { RequestNotFound: 'Someone else already decided this request.' })

describe('the person’s controls on a pending change: cancel, retry, dismiss', () => {
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
    await db.insertInto('item').values({ groupDid: A, kind: 'joinRequest', key: ASKER, view: JSON.stringify({ did: ASKER }), pendingAction: null }).execute()
  })
  afterEach(async () => {
    await outbox.close()
    await cache.remove(db)
  })

  const enqueue = async (action: ReturnType<typeof prepareAction>) => (await outbox.enqueueMany([action]))[0]!
  const deny = () => enqueue(prepareAction(A, 'joinRequest.decide', { did: ASKER, decision: 'deny' }))
  const requests = () => readItems<{ did: string }>(db, A, 'joinRequest')
  const rowOf = async (id: number) => (await outbox.list({ includeDone: true })).find((r) => r.id === id)
  const refusal = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(UserFacingError)
    return (err as UserFacingError).message
  }

  it('cancel removes a queued change and takes back its effect: the request shows as waiting again, and nothing is sent', async () => {
    fake.state.fail = notAnswering
    const id = await deny()
    expect(await requests()).toEqual([{ did: ASKER, pending: true }])
    await outbox.replay(A)
    expect(await rowOf(id)).toMatchObject({ state: 'queued', lastError: 'The group host is not answering. Your change is kept and will be sent when it answers.' })

    await outbox.cancel(id)
    expect(await rowOf(id)).toBeUndefined()
    expect(await requests()).toEqual([{ did: ASKER, pending: false }])
    fake.state.fail = undefined
    await outbox.replay(A)
    expect(fake.sent).toEqual([])
  })

  it('cancel removes a new event the host never saw', async () => {
    fake.state.fail = notAnswering
    const { kind, payload } = queuedAction({ kind: 'event.create', event: { name: 'Picnic', startsAt: '2026-12-01T12:00:00Z' } }, ME)
    const id = await enqueue(prepareAction(A, kind, payload))
    expect(await readItems(db, A, 'event')).toHaveLength(1)
    await outbox.cancel(id)
    expect(await readItems(db, A, 'event')).toEqual([])
  })

  it('cancel puts a role change back at once, while the host is still not answering, and the group need not be read again', async () => {
    fake.state.fail = notAnswering
    await db.insertInto('item').values({ groupDid: A, kind: 'member', key: ASKER, view: JSON.stringify({ did: ASKER, roles: ['member', 'moderator'] }), pendingAction: null }).execute()
    await db.insertInto('group_row').values({ did: A, view: '{}', hostUrl: 'http://host.test', hostAud: 'did:web:host.test#groups', changeCursor: '42', syncedAt: null }).execute()
    const members = () => readItems<{ roles: string[] }>(db, A, 'member')
    const take = await enqueue(prepareAction(A, 'member.revokeRole', { did: ASKER, role: 'moderator' }))
    expect(await members()).toEqual([{ did: ASKER, roles: ['member'], pending: true }])
    await outbox.replay(A)
    await outbox.cancel(take)
    expect(await members()).toEqual([{ did: ASKER, roles: ['member', 'moderator'], pending: false }])
    const { changeCursor } = await db.selectFrom('group_row').select('changeCursor').where('did', '=', A).executeTakeFirstOrThrow()
    expect(changeCursor).toBe('42')
  })

  it('cancelling the later of two changes to one row keeps the earlier, still pending', async () => {
    fake.state.fail = notAnswering
    await db.insertInto('item').values({ groupDid: A, kind: 'member', key: ASKER, view: JSON.stringify({ did: ASKER, roles: ['member'] }), pendingAction: null }).execute()
    const members = () => readItems<{ roles: string[] }>(db, A, 'member')
    const give = await enqueue(prepareAction(A, 'member.grantRole', { did: ASKER, role: 'moderator' }))
    const takeBack = await enqueue(prepareAction(A, 'member.revokeRole', { did: ASKER, role: 'member' }))
    expect(await members()).toEqual([{ did: ASKER, roles: ['moderator'], pending: true }])
    await outbox.cancel(takeBack)
    expect(await members()).toEqual([{ did: ASKER, roles: ['member', 'moderator'], pending: true }])
    await outbox.cancel(give)
    expect(await members()).toEqual([{ did: ASKER, roles: ['member'], pending: false }])
  })

  it('cannot cancel a change being sent or already sent, and says why in plain words', async () => {
    let release!: () => void
    fake.state.hold = new Promise<void>((resolve) => (release = resolve))
    const id = await deny()
    const sending = outbox.replay(A)
    await expect.poll(async () => (await rowOf(id))?.state).toBe('sending')
    expect(await refusal(outbox.cancel(id))).toMatch(/being sent right now, so it can no longer be cancelled/)
    release()
    await sending
    expect((await rowOf(id))?.state).toBe('done')
    expect(await refusal(outbox.cancel(id))).toMatch(/already sent to the group host, so it cannot be cancelled/)
    expect(await refusal(outbox.cancel(9999))).toMatch(/no longer in the list of pending changes/)
  })

  it('a change cancelled before its group’s queue is sent is never sent', async () => {
    const id = await deny()
    await outbox.cancel(id)
    await outbox.replay(A)
    expect(fake.sent).toEqual([])
  })

  it('retry sends a backed-off change at once, without waiting out its back-off', async () => {
    fake.state.fail = notAnswering
    const id = await deny()
    await outbox.replay(A)
    const waiting = await rowOf(id)
    expect(waiting?.nextAttemptAt).not.toBeNull()
    fake.state.fail = undefined
    await outbox.retry(id)
    await outbox.replay(A)
    expect(fake.sent).toEqual([ASKER])
    expect((await rowOf(id))?.state).toBe('done')
    // The clock never moved: it was sent at once.
    expect(clock.now()).toBe(Date.parse('2026-11-25T12:00:00Z'))
  })

  it('retry sends a failed change again; a conflict is not retried, with plain words', async () => {
    fake.state.fail = () => new XrpcCallError('example.groups.admitMember', 400, 'InvalidRequest', 'bad')
    const failed = await deny()
    await outbox.replay(A)
    expect((await rowOf(failed))?.state).toBe('failed')
    fake.state.fail = undefined
    await outbox.retry(failed)
    await outbox.replay(A)
    expect((await rowOf(failed))?.state).toBe('done')

    fake.state.fail = () => new XrpcCallError('example.groups.admitMember', 400, 'RequestNotFound', 'gone')
    const conflict = await deny()
    await outbox.replay(A)
    expect((await rowOf(conflict))?.state).toBe('conflict')
    expect(await refusal(outbox.retry(conflict))).toMatch(/sending it again would be refused too/)
  })

  it('dismiss removes a change that was not applied for good (a new outbox on the same file does not list it); a waiting one must be cancelled instead', async () => {
    fake.state.fail = () => new XrpcCallError('example.groups.admitMember', 400, 'RequestNotFound', 'gone')
    const conflict = await deny()
    await outbox.replay(A)
    expect((await rowOf(conflict))?.state).toBe('conflict')
    await outbox.dismiss(conflict)
    await outbox.close()
    await db.destroy()
    db = await openCacheDb(cache.dir, ME)
    outbox = new Outbox(db, fake.handlers, () => {}, clock)
    expect(await outbox.list({ includeDone: true })).toEqual([])

    fake.state.fail = notAnswering
    const waiting = await deny()
    await outbox.replay(A)
    expect(await refusal(outbox.dismiss(waiting))).toMatch(/still waiting to be sent. Cancel it instead/)
  })
})
