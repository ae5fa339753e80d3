import { afterAll, describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { StreamClient } from '../../support/change-stream.js'
import { lapseAssignment } from '../../support/host-db.js'

/**
 * "I'm on it" (issue 23): a moderator takes a subject with emitModerationEvent `assign`;
 * every other moderator sees `assignedTo` on it (getSubject, listSubjects) and hears of
 * it on the change stream; it ends when they resolve it, release it, or after 30 minutes.
 */
const net = useLocalNetwork()
const as = net.caller
const group = () => net.group('approval').did
const account = (did: string) => ({ $type: 'example.groups.defs#subjectAccount', did })

interface Assignment {
  did: string
  startAt: string
  endAt: string
}
interface SubjectView {
  status: string
  assignedTo?: Assignment
}
const emit = (by: Parameters<typeof net.as>[0], did: string, event: string) =>
  as(by).call<{ subject: SubjectView; error?: string }>('example.groups.emitModerationEvent', { body: { group: group(), subject: account(did), event } })
const detail = async (by: Parameters<typeof net.as>[0], did: string) => {
  const res = await as(by).call<{ subject: SubjectView; history: { event: string; createdBy?: string; assignedTo?: string; endAt?: string }[] }>('example.groups.getSubject', {
    params: { group: group(), subject: did },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body
}
const queued = async (by: Parameters<typeof net.as>[0], did: string) => {
  const res = await as(by).call<{ subjects: (SubjectView & { subject: { did?: string } })[] }>('example.groups.listSubjects', { params: { group: group() } })
  return res.body.subjects.find((s) => s.subject.did === did)!
}
const report = async (did: string) =>
  expect((await as('member').call('example.groups.createReport', { body: { group: group(), subject: account(did), reasonType: 'com.atproto.moderation.defs#reasonSpam' } })).status).toBe(200)

let watcher: StreamClient | undefined
afterAll(() => watcher?.terminate())

describe('moderator assignment', () => {
  it('a moderator takes a subject: the others see who has it, and hear of it on the stream', async () => {
    const outsider = as('outsider').did
    await report(outsider)
    watcher = await StreamClient.open(as('admin'), { groups: [group()] })

    const before = Date.now()
    const taken = await emit('moderator', outsider, 'assign')
    expect(taken.status, JSON.stringify(taken.body)).toBe(200)
    const held = taken.body.subject.assignedTo!
    expect(held.did).toBe(as('moderator').did)
    expect(Date.parse(held.endAt) - Date.parse(held.startAt)).toBe(30 * 60_000)
    expect(Date.parse(held.startAt)).toBeGreaterThanOrEqual(before - 1_000)

    await watcher.change((c) => c.change.kind === 'subject.updated' && c.change.subject === outsider)
    expect((await detail('admin', outsider)).subject.assignedTo).toEqual(held)
    expect((await queued('admin', outsider)).assignedTo).toEqual(held)
    // Someone else's hold is theirs until released.
    expect(await emit('admin', outsider, 'assign')).toMatchObject({ status: 400, body: { error: 'AlreadyAssigned' } })
    // Taking it again renews it.
    expect((await emit('moderator', outsider, 'assign')).body.subject.assignedTo).toMatchObject({ did: held.did, startAt: held.startAt })
  })

  it('resolving it ends the hold; the history keeps who took it', async () => {
    const outsider = as('outsider').did
    expect((await emit('moderator', outsider, 'resolve')).body.subject).toMatchObject({ status: 'resolved' })
    const after = await detail('admin', outsider)
    expect(after.subject.assignedTo).toBeUndefined()
    expect((await queued('admin', outsider)).assignedTo).toBeUndefined()
    expect(after.history.map((h) => [h.event, h.createdBy, h.assignedTo])).toEqual([
      ['resolve', as('moderator').did, undefined],
      ['assign', as('moderator').did, as('moderator').did],
      ['assign', as('moderator').did, as('moderator').did],
      ['report', as('member').did, undefined],
    ])
    expect(after.history[1]!.endAt).toBeDefined()
  })

  it('released by hand, by the holder or another moderator, and recorded', async () => {
    const other = as('outsider2').did
    await report(other)
    expect((await emit('moderator', other, 'assign')).status).toBe(200)
    const released = await emit('admin', other, 'unassign')
    expect(released.status, JSON.stringify(released.body)).toBe(200)
    expect(released.body.subject.assignedTo).toBeUndefined()
    expect((await detail('moderator', other)).history[0]).toMatchObject({ event: 'unassign', createdBy: as('admin').did, assignedTo: as('moderator').did })
    expect(await emit('admin', other, 'unassign')).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    // Free again: the admin takes it.
    expect((await emit('admin', other, 'assign')).body.subject.assignedTo?.did).toBe(as('admin').did)
  })

  it('lapses after its time: shown to nobody, free for anyone to take', async () => {
    const other = as('outsider2').did
    lapseAssignment(net.running, group(), other)
    expect((await detail('moderator', other)).subject.assignedTo).toBeUndefined()
    expect((await emit('moderator', other, 'assign')).body.subject.assignedTo?.did).toBe(as('moderator').did)
  })

  it('needs mod.resolve to take a subject', async () => {
    expect(await emit('member', as('outsider2').did, 'assign')).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
  })
})
