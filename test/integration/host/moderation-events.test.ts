import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { moderationEvents } from '../../support/host-db.js'

const net = useLocalNetwork()
const as = net.caller

const group = () => net.group('approval').did
const account = (did: string) => ({ $type: 'example.groups.defs#subjectAccount', did })
const emit = (by: Parameters<typeof net.as>[0], subject: unknown, event: string, note?: string) =>
  as(by).call<{ subject: { status: string; reportCount: number }; error?: string }>('example.groups.emitModerationEvent', {
    body: { group: group(), subject, event, ...(note !== undefined ? { note } : {}) },
  })
const history = async (key: string) =>
  (await as('moderator').call<{ history: { event: string; note?: string; status?: string; createdBy?: string; createdAt: string }[] }>('example.groups.getSubject', { params: { group: group(), subject: key } })).body.history

describe('example.groups.emitModerationEvent', () => {
  it('comments, acknowledges, escalates and resolves, each kept in the history with who and when', async () => {
    const subject = account(as('outsider').did)
    expect((await as('member').call('example.groups.createReport', { body: { group: group(), subject, reasonType: 'com.atproto.moderation.defs#reasonRude', reason: 'Mocked a newcomer' } })).status).toBe(200)

    expect(await emit('moderator', subject, 'acknowledge')).toMatchObject({ status: 200, body: { subject: { status: 'open', reportCount: 1 } } })
    expect(await emit('moderator', subject, 'comment', 'Asked them what happened')).toMatchObject({ status: 200, body: { subject: { status: 'open' } } })
    expect(await emit('moderator', subject, 'escalate', 'Second time this month')).toMatchObject({ status: 200, body: { subject: { status: 'escalated' } } })
    expect(await emit('admin', subject, 'resolve', 'Spoke to them; they apologised')).toMatchObject({ status: 200, body: { subject: { status: 'resolved' } } })

    const seen = await history(as('outsider').did)
    expect(seen.map((h) => [h.event, h.note, h.createdBy])).toEqual([
      ['resolve', 'Spoke to them; they apologised', as('admin').did],
      ['escalate', 'Second time this month', as('moderator').did],
      ['comment', 'Asked them what happened', as('moderator').did],
      ['acknowledge', undefined, as('moderator').did],
      ['report', undefined, as('member').did],
    ])
    expect(seen.every((h) => !Number.isNaN(Date.parse(h.createdAt)))).toBe(true)
    // A resolved subject leaves the open queue.
    const open = await as('moderator').call<{ subjects: unknown[] }>('example.groups.listSubjects', { params: { group: group(), status: 'open' } })
    expect(open.body.subjects).toEqual([])
  })

  it('keeps updateSubject working beside it, in the same history', async () => {
    const subject = account(as('outsider').did)
    expect((await as('moderator').call('example.groups.updateSubject', { body: { group: group(), subject, status: 'open', note: 'Reopening' } })).status).toBe(200)
    const [latest] = await history(as('outsider').did)
    expect(latest).toMatchObject({ event: 'status', status: 'open', note: 'Reopening', createdBy: as('moderator').did })
    expect(moderationEvents(net.running, group()).map((e) => e.kind)).toEqual(['report', 'acknowledge', 'comment', 'escalate', 'resolve', 'status'])
  })

  it('refuses callers without mod.resolve (Forbidden), and leaves no trace', async () => {
    for (const name of ['member', 'outsider'] as const) {
      expect(await emit(name, account(as('outsider').did), 'resolve'), name).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    }
    expect(moderationEvents(net.running, group())).toHaveLength(6)
  })

  it('answers SubjectNotFound for something nobody reported, InvalidRequest for unknown events and wordless comments', async () => {
    expect(await emit('moderator', account(as('owner').did), 'resolve')).toMatchObject({ status: 400, body: { error: 'SubjectNotFound' } })
    expect(await emit('moderator', account(as('outsider').did), 'label')).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(await emit('moderator', account(as('outsider').did), 'comment', '   ')).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(await emit('moderator', { did: as('outsider').did }, 'resolve')).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
  })
})

describe('example.groups.emitModerationEvent sent again with the same idempotencyKey', () => {
  const emitKeyed = (by: Parameters<typeof net.as>[0], subject: unknown, event: string, idempotencyKey: string) =>
    as(by).call<{ subject: { status: string }; seq?: number }>('example.groups.emitModerationEvent', { body: { group: group(), subject, event, note: 'Spam wave', idempotencyKey } })

  it('records the event once (a retry after a lost answer); another key, event or moderator is a new event', async () => {
    const did = `did:plc:idemkey${Date.now().toString(36)}`
    const subject = account(did)
    expect((await as('member').call('example.groups.createReport', { body: { group: group(), subject, reasonType: 'spam' } })).status).toBe(200)

    const first = await emitKeyed('moderator', subject, 'resolve', 'row-1')
    expect(first).toMatchObject({ status: 200, body: { subject: { status: 'resolved' } } })
    expect(typeof first.body.seq).toBe('number')
    // The same call again: answered with the subject as it is, nothing recorded (no seq).
    const again = await emitKeyed('moderator', subject, 'resolve', 'row-1')
    expect(again).toMatchObject({ status: 200, body: { subject: { status: 'resolved' } } })
    expect(again.body.seq).toBeUndefined()
    expect((await history(did)).filter((h) => h.event === 'resolve')).toHaveLength(1)

    // The key is the moderator's own and names one event: these are new.
    expect((await emitKeyed('moderator', subject, 'comment', 'row-1')).status).toBe(200)
    expect((await emitKeyed('admin', subject, 'resolve', 'row-1')).status).toBe(200)
    expect((await emitKeyed('moderator', subject, 'resolve', 'row-2')).status).toBe(200)
    expect((await history(did)).map((h) => [h.event, h.createdBy])).toEqual([
      ['resolve', as('moderator').did],
      ['resolve', as('admin').did],
      ['comment', as('moderator').did],
      ['resolve', as('moderator').did],
      ['report', as('member').did],
    ])
  })

  it('pins a subject to the top of the team’s queue with who and when, says so in the change log, unpins it, and a decision unpins it too', async () => {
    const did = `did:plc:pinned${Date.now().toString(36)}`
    const subject = account(did)
    expect((await as('member').call('example.groups.createReport', { body: { group: group(), subject, reasonType: 'spam' } })).status).toBe(200)
    const pinnedOf = async () => (await as('admin').call<{ subject: { pinned?: { by: string; at: string } } }>('example.groups.getSubject', { params: { group: group(), subject: did } })).body.subject.pinned
    const changes = async () => (await as('moderator').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: group(), limit: 100 } })).body.changes

    const pinned = await emit('moderator', subject, 'pin')
    expect(pinned).toMatchObject({ status: 200, body: { subject: { status: 'open', pinned: { by: as('moderator').did } } } })
    const at = (await pinnedOf())!.at
    expect(Date.now() - Date.parse(at)).toBeLessThan(60_000)
    // Every moderator's app learns of it from the change log (and the live stream that follows it).
    expect((await changes()).filter((c) => c.kind === 'subject.updated' && c.subject === did).length).toBeGreaterThan(0)
    // Pinned again by another: the first pin stands (who and when), the act is in the history.
    expect(await emit('admin', subject, 'pin')).toMatchObject({ status: 200 })
    expect(await pinnedOf()).toEqual({ by: as('moderator').did, at })
    const listed = await as('moderator').call<{ subjects: { subject: { did?: string }; pinned?: unknown }[] }>('example.groups.listSubjects', { params: { group: group(), status: 'open' } })
    expect(listed.body.subjects.find((s) => s.subject.did === did)?.pinned).toEqual({ by: as('moderator').did, at })

    expect(await emit('moderator', subject, 'unpin')).toMatchObject({ status: 200 })
    expect(await pinnedOf()).toBeUndefined()
    expect(await emit('moderator', subject, 'unpin')).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(await emit('moderator', subject, 'pin')).toMatchObject({ status: 200 })
    expect(await emit('moderator', subject, 'resolve')).toMatchObject({ status: 200, body: { subject: { status: 'resolved' } } })
    expect(await pinnedOf()).toBeUndefined()
    expect((await history(did)).map((h) => h.event)).toEqual(['resolve', 'pin', 'unpin', 'pin', 'pin', 'report'])
    // Members may not pin: it is a moderator's act.
    expect(await emit('member', subject, 'pin')).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
  })
})
