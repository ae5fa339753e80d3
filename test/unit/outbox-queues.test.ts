import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { openCacheDb, type CacheDb } from '../../src/main/core/cache/cache-db'
import { installLogSink } from '../../src/main/core/log/log'
import { FakeClock, tempCache } from '../support/outbox-fakes'
import { Outbox, type ActionHandler } from '../../src/main/core/outbox/outbox'
import { FIRST_DELAY_MS, MAX_DELAY_MS, MAX_FAILURES } from '../../src/main/core/outbox/backoff'
import { UNREADABLE_ACTION } from '../../src/main/core/outbox/queued-payloads'
import { ACTIONS, payloadSchema } from '../../src/main/core/actions/registry'
import { queuedAction, reapplyQueued, type RequestedAction } from '../../src/main/core/queue/organizer-actions'
import { readItem } from '../../src/main/core/cache/items'
import { GroupAction } from '../../src/shared/ipc/contract'
import { UserFacingError } from '../../src/main/core/ipc/errors'
import { XrpcCallError } from '../../src/main/core/xrpc/xrpc-error'

const A = 'did:plc:groupaaaaaaaaaaaaaaaaaaaa'
const B = 'did:plc:groupbbbbbbbbbbbbbbbbbbbb'
const ME = 'did:plc:me'

const unreachable = () => new XrpcCallError('example.groups.admitMember', 0, 'HostUnreachable', 'fetch failed')

/**
 * A fake sender: records what went out, by group, in order; `fail` decides per call
 * (a thrown error), `hang` holds a group's sends until released.
 */
function fakeSender() {
  const sent: string[] = []
  const hung = new Map<string, () => void>()
  const state = { fail: (_group: string, _n: number): unknown => undefined, hang: new Set<string>() }
  const handler: ActionHandler = {
    schema: z.object({ n: z.number().int() }).strict(),
    conflicts: { RequestNotFound: 'Someone else already decided this request.' },
    async send(group, payload) {
      const { n } = payload as { n: number }
      if (state.hang.has(group)) await new Promise<void>((resolve) => hung.set(group, resolve))
      const err = state.fail(group, n)
      if (err) throw err
      sent.push(`${group === A ? 'A' : 'B'}${n}`)
    },
  }
  return { sent, hung, state, handlers: { 'test.act': handler } }
}

describe('the outbox: one ordered queue per group, parsed on read, with back-off and a cap', () => {
  let cache: Awaited<ReturnType<typeof tempCache>>
  let db: CacheDb
  let clock: FakeClock
  let sender: ReturnType<typeof fakeSender>
  let outbox: Outbox
  installLogSink({ write: () => {} })
  afterAll(() => installLogSink(null))

  beforeEach(async () => {
    cache = await tempCache(ME)
    db = cache.db
    clock = new FakeClock()
    sender = fakeSender()
    outbox = new Outbox(db, sender.handlers, () => {}, clock)
  })
  afterEach(async () => {
    for (const release of sender.hung.values()) release()
    await outbox.close()
    await cache.remove(db)
  })

  const queue = (groupDid: string, n: number) => outbox.enqueue({ groupDid, kind: 'test.act', payload: { n }, label: `act ${n}` })
  const rowOf = async (id: number) => (await outbox.list({ includeDone: true })).find((r) => r.id === id)!

  it('sends group B’s action while group A’s host hangs, and keeps each group’s order', async () => {
    const a1 = await queue(A, 1)
    await queue(A, 2)
    await queue(B, 1)
    await queue(B, 2)
    sender.state.hang.add(A)
    const all = outbox.replay()
    await outbox.replay(B)
    expect(sender.sent).toEqual(['B1', 'B2'])
    expect((await rowOf(a1)).state).toBe('sending')
    // A's second action waits behind its first.
    sender.state.hang.delete(A)
    sender.hung.get(A)!()
    await all
    expect(sender.sent).toEqual(['B1', 'B2', 'A1', 'A2'])
  })

  it('a group whose host is down waits out its back-off alone; the other group’s new actions go at once', async () => {
    sender.state.fail = (g) => (g === A ? unreachable() : undefined)
    const a1 = await queue(A, 1)
    await outbox.replay()
    expect((await rowOf(a1)).state).toBe('queued')
    await queue(B, 1)
    await outbox.replay()
    expect(sender.sent).toEqual(['B1'])
  })

  it('fails a stored action this version cannot read, with plain words, and sends the group’s next one', async () => {
    const id = await queue(A, 1)
    await queue(A, 2)
    // What an older version stored: another shape for the same kind.
    await db.updateTable('outbox').set({ payload: JSON.stringify({ count: '1' }) }).where('id', '=', id).execute()
    await outbox.replay()
    expect(await rowOf(id)).toMatchObject({ state: 'failed', lastError: UNREADABLE_ACTION, attempts: 0 })
    expect(sender.sent).toEqual(['A2'])
    // Its catch-up reads the lists again (the cached effect was never confirmed).
    expect(outbox.takeSettled(A).map((s) => [s.id, s.state])).toEqual([
      [id, 'failed'],
      [id + 1, 'done'],
    ])
  })

  it('fails a row that is not JSON, or of a kind this version does not know, and still lists the queue', async () => {
    const broken = await queue(A, 1)
    const unknown = await queue(A, 2)
    await db.updateTable('outbox').set({ payload: '{"n":' }).where('id', '=', broken).execute()
    await db.updateTable('outbox').set({ kind: 'test.gone' }).where('id', '=', unknown).execute()
    expect(await outbox.list()).toHaveLength(2)
    await outbox.replay()
    expect((await outbox.list()).map((r) => [r.state, r.lastError])).toEqual([
      ['failed', UNREADABLE_ACTION],
      ['failed', UNREADABLE_ACTION],
    ])
    expect(sender.sent).toEqual([])
  })

  it('a refresh applies again the cached effect of a queued action it can read, and skips one it cannot', async () => {
    const member = 'did:plc:abc'
    await db.insertInto('item').values({ groupDid: A, kind: 'member', key: member, view: JSON.stringify({ did: member, roles: ['member'] }), pendingAction: null }).execute()
    const stored = (payload: string) => ({ id: 7, kind: 'member.grantRole', payload })
    await db.transaction().execute((tx) => reapplyQueued(tx, A, stored(JSON.stringify({ did: member, rank: 'moderator' }))))
    expect(await readItem(db, A, 'member', member)).toEqual({ did: member, roles: ['member'] })
    await db.transaction().execute((tx) => reapplyQueued(tx, A, stored(JSON.stringify({ did: member, role: 'moderator' }))))
    expect(await readItem(db, A, 'member', member)).toEqual({ did: member, roles: ['member', 'moderator'] })
  })

  it('refuses to queue a payload it could not read back', async () => {
    await expect(outbox.enqueue({ groupDid: A, kind: 'test.act', payload: { n: 'one' }, label: 'bad' })).rejects.toThrow(/could not be read back/)
    expect(await outbox.list()).toEqual([])
  })

  it('waits longer after each transient failure, up to the longest wait, and sends when the host is back', async () => {
    let down = true
    sender.state.fail = () => (down ? unreachable() : undefined)
    const id = await queue(A, 1)
    await outbox.replay()
    const waits: number[] = []
    for (let i = 0; i < 14; i++) {
      const row = await rowOf(id)
      expect(row.state).toBe('queued')
      const wait = Date.parse(row.nextAttemptAt!) - clock.now()
      waits.push(wait)
      // Not tried before it is due, whoever asks.
      const attempts = row.attempts
      await outbox.replay()
      expect((await rowOf(id)).attempts).toBe(attempts)
      clock.advance(wait)
      await outbox.replay(A)
    }
    // Random 0.5 puts each wait at three quarters of its ceiling.
    expect(waits.slice(0, 4)).toEqual([0.75, 1.5, 3, 6].map((x) => x * FIRST_DELAY_MS))
    expect(Math.max(...waits)).toBe(0.75 * MAX_DELAY_MS)
    expect((await rowOf(id)).lastError).toContain('cannot be reached')
    down = false
    clock.advance(MAX_DELAY_MS)
    await outbox.replay(A)
    expect(await rowOf(id)).toMatchObject({ state: 'done', attempts: 16 })
    expect(sender.sent).toEqual(['A1'])
  })

  it('a 5xx counts as transient; after the cap the action is failed with plain words, kept, and the group goes on', async () => {
    sender.state.fail = (_g, n) => (n === 1 ? new XrpcCallError('example.groups.admitMember', 503, 'Http503', '') : undefined)
    const id = await queue(A, 1)
    await queue(A, 2)
    for (let i = 0; i < MAX_FAILURES; i++) {
      clock.advance(MAX_DELAY_MS)
      await outbox.replay(A)
    }
    const row = await rowOf(id)
    expect(row).toMatchObject({ state: 'failed', attempts: MAX_FAILURES, nextAttemptAt: null })
    expect(row.lastError).toBe(`Not sent: the group host kept failing to take it (error 503), ${MAX_FAILURES} tries over many hours. Dismiss it, or make the change again when the host is back.`)
    expect(sender.sent).toEqual(['A2'])
    expect(await outbox.list()).toEqual([expect.objectContaining({ id, state: 'failed' })])
  })

  it('a refusal with a spec error fails or conflicts at once, with no back-off', async () => {
    sender.state.fail = (_g, n) =>
      n === 1 ? new XrpcCallError('example.groups.admitMember', 400, 'RequestNotFound', '') : new XrpcCallError('example.groups.grantRole', 400, 'NotAssignable', 'no')
    const conflict = await queue(A, 1)
    const failed = await queue(A, 2)
    await outbox.replay()
    expect(await rowOf(conflict)).toMatchObject({ state: 'conflict', attempts: 1, nextAttemptAt: null })
    expect(await rowOf(failed)).toMatchObject({ state: 'failed', attempts: 1, nextAttemptAt: null, lastError: 'Your role does not let you give, take away or remove that role.' })
  })

  it('a sign-in that ended waits for the person: tried at each pass, never counted toward the cap', async () => {
    sender.state.fail = () => new UserFacingError('SignInRequired', 'Your sign-in for this account has ended. Sign in again.')
    const id = await queue(A, 1)
    for (let i = 0; i < MAX_FAILURES + 2; i++) await outbox.replay()
    expect(await rowOf(id)).toMatchObject({ state: 'queued', attempts: MAX_FAILURES + 2, nextAttemptAt: null, lastError: expect.stringContaining('Sign in again') })
  })

  it('keeps the back-off over a restart, and "Sync now" ends it', async () => {
    sender.state.fail = () => unreachable()
    const id = await queue(A, 1)
    await outbox.replay()
    const { nextAttemptAt } = await rowOf(id)
    expect(Date.parse(nextAttemptAt!)).toBeGreaterThan(clock.now())
    // The app quits and starts again over the same file.
    await outbox.close()
    await db.destroy()
    db = await openCacheDb(cache.dir, ME)
    sender = fakeSender()
    outbox = new Outbox(db, sender.handlers, () => {}, clock)
    await outbox.recoverInterrupted()
    await outbox.replay()
    expect(sender.sent).toEqual([])
    expect(await rowOf(id)).toMatchObject({ attempts: 1, nextAttemptAt })
    // The person asks: it goes now.
    await outbox.endBackOffs()
    await outbox.replay()
    expect(sender.sent).toEqual(['A1'])
  })

  it('sends a waiting group again when its back-off ends, with nobody asking', async () => {
    let down = true
    sender.state.fail = () => (down ? unreachable() : undefined)
    const id = await queue(A, 1)
    await outbox.replay()
    down = false
    clock.advance(FIRST_DELAY_MS)
    await outbox.close() // waits for the pass the timer started
    expect((await rowOf(id)).state).toBe('done')
  })
})

/** One action of every kind, as the window would ask for it. */
const someOfEach: RequestedAction[] = [
  { kind: 'joinRequest.decide', did: 'did:plc:abc', decision: 'admit', roles: ['moderator'] },
  { kind: 'invite.create', invitee: 'did:plc:abc', message: 'come along' },
  { kind: 'invite.revoke', invitee: 'did:plc:abc' },
  { kind: 'member.grantRole', did: 'did:plc:abc', role: 'moderator' },
  { kind: 'member.revokeRole', did: 'did:plc:abc', role: 'moderator' },
  { kind: 'member.eject', did: 'did:plc:abc', note: 'spam' },
  { kind: 'event.create', event: { name: ' Meetup ', startsAt: '2026-12-01T18:00:00Z', endsAt: '2026-12-01T20:00:00+01:00' } },
  { kind: 'event.create', event: { name: 'Small room', startsAt: '2026-12-01T18:00:00Z' }, capacity: 2, image: { data: 'iVBORw0KGgo=', mimeType: 'image/png', alt: 'The room' } },
  { kind: 'event.update', rkey: '3lbxkeuvqhk2a', event: { name: 'Meetup', startsAt: '2026-12-01T18:00:00Z', location: 'Hall' } },
  { kind: 'event.delete', rkey: '3lbxkeuvqhk2a' },
  { kind: 'event.rsvp', rkey: '3lbxkeuvqhk2a', status: 'going' },
  { kind: 'event.capacity', rkey: '3lbxkeuvqhk2a', capacity: 12 },
  { kind: 'event.standing', rkey: '3lbxkeuvqhk2a', did: 'did:plc:abc', standing: 'going' },
  { kind: 'membership.accept' },
  { kind: 'space.create', type: 'community.lexicon.calendar', skey: 'main', name: 'Calendar', readableBy: ['member'], credentialScopes: [] },
  { kind: 'space.update', space: 'at://did:plc:g/space/community.lexicon.calendar/main', name: 'Events' },
  { kind: 'space.delete', space: 'at://did:plc:g/space/community.lexicon.calendar/main' },
  { kind: 'membership.leave' },
  { kind: 'membership.request', message: ' hello ' },
  { kind: 'membership.cancelRequest' },
  { kind: 'subject.update', key: 'did:plc:x', subject: { did: 'did:plc:x' }, status: 'resolved', note: 'done' },
  { kind: 'subject.event', key: 'did:plc:x', subject: { uri: 'at://did:plc:x/app.bsky.feed.post/1' }, event: 'assign' },
  { kind: 'report.create', subject: { did: 'did:plc:x' }, reasonType: 'com.atproto.moderation.defs#reasonSpam', reason: 'ads' },
  { kind: 'group.configure', displayName: 'Harbour walkers', joinPolicy: 'approval' },
  { kind: 'role.put', name: 'greeter', actions: ['admit'], assignable: ['member'] },
  { kind: 'role.delete', name: 'greeter' },
  { kind: 'post.create', text: 'Picnic on Sunday' },
  { kind: 'post.pin', post: null },
  { kind: 'event.image', rkey: '3lbxkeuvqhk2a', image: { data: 'iVBORw0KGgo=', mimeType: 'image/png', alt: ' A picnic ' } },
  { kind: 'attendance.checkIn', rkey: '3lbxkeuvqhk2a', did: 'did:plc:abc', walkIn: false },
  // A walk-in by handle, queued while it could not be looked up (the network gone).
  { kind: 'attendance.checkIn', rkey: '3lbxkeuvqhk2a', handle: 'sam.example.com', walkIn: true },
  { kind: 'attendance.undo', rkey: '3lbxkeuvqhk2a', did: 'did:plc:abc' },
]

describe('the stored payload schemas come from the contract', () => {
  it('read back every kind of action as the core queues it', () => {
    expect([...new Set(someOfEach.map((a) => a.kind))].sort()).toEqual(Object.keys(ACTIONS).sort())
    for (const asked of someOfEach) {
      const parsed = GroupAction.parse(asked)
      const { kind, payload } = queuedAction(parsed, ME)
      const stored: unknown = JSON.parse(JSON.stringify(payload))
      expect(payloadSchema(kind).parse(stored), kind).toEqual(stored)
      // Nothing asked for is dropped on the way (a new event's capacity once was).
      const { kind: _kind, ...fields } = parsed
      expect(stored, kind).toMatchObject(JSON.parse(JSON.stringify(fields)) as object)
    }
  })

  it('read back what the core queues, and nothing else', () => {
    expect(payloadSchema('joinRequest.decide').safeParse({ did: 'did:plc:abc', decision: 'admit' }).success).toBe(true)
    expect(payloadSchema('joinRequest.decide').safeParse({ did: 'did:plc:abc', decision: 'maybe' }).success).toBe(false)
    // A new event carries the record key the core chose when queueing.
    const event = { name: 'Meetup', startsAt: '2026-12-01T18:00:00Z' }
    expect(payloadSchema('event.create').safeParse({ event, rkey: '3lbxkeuvqhk2a' }).success).toBe(true)
    expect(payloadSchema('event.create').safeParse({ event }).success).toBe(false)
    expect(payloadSchema('subject.event').safeParse({ key: 'did:plc:x', subject: { did: 'did:plc:x' }, event: 'assign', by: 'did:plc:me' }).success).toBe(true)
    // An old shape with a field this version does not know is not sent as if it were ours.
    expect(payloadSchema('invite.revoke').safeParse({ invitee: 'did:plc:abc', via: 'email' }).success).toBe(false)
  })
})
