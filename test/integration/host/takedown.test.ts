import { beforeAll, describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { EVENT, createOpenSpace, writeGroupEvent } from '../../support/group-records.js'

const net = useLocalNetwork()
const as = net.caller

const group = () => net.group('open').did
const account = (did: string) => ({ $type: 'example.groups.defs#subjectAccount', did })
const recordSubject = (uri: string) => ({ $type: 'example.groups.defs#subjectRecord', uri })
const emit = (by: Parameters<typeof net.as>[0], subject: unknown, event: string) =>
  as(by).call<{ subject: { status: string; takenDown?: boolean } }>('example.groups.emitModerationEvent', { body: { group: group(), subject, event } })

type Listed = { records: { uri: string; value: { name: string }; takenDown?: boolean }[] }
const listEvents = (by: Parameters<typeof net.as>[0]) =>
  as(by).call<Listed>('com.atproto.space.listRecords', { params: { space, repo: group(), collection: EVENT } })
const getEvent = (by: Parameters<typeof net.as>[0], uri: string) =>
  as(by).call<{ value: { name: string }; takenDown?: boolean; error?: string }>('com.atproto.space.getRecord', {
    params: { space, repo: group(), collection: EVENT, rkey: uri.split('/').pop()! },
  })
const changes = async (by: Parameters<typeof net.as>[0]) =>
  (await as(by).call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: group(), limit: 100 } })).body.changes

let space: string
let spam: string
let picnic: string

describe('takedowns', () => {
  beforeAll(async () => {
    space = await createOpenSpace(as('owner'), group(), 'example.test.calendar')
    picnic = await writeGroupEvent(net.stack.host.url, as('owner'), group(), space, 'Picnic')
    spam = await writeGroupEvent(net.stack.host.url, as('owner'), group(), space, 'Cheap watches')
    expect((await as('member').call('example.groups.createReport', { body: { group: group(), subject: recordSubject(spam), reasonType: 'com.atproto.moderation.defs#reasonSpam', reason: 'An advert' } })).status).toBe(200)
  })

  it('stops serving a taken-down record to members, says so in the change log, and shows it marked to moderators', async () => {
    expect((await listEvents('member')).body.records.map((r) => r.value.name).sort()).toEqual(['Cheap watches', 'Picnic'])
    expect(await emit('moderator', recordSubject(spam), 'takedown')).toMatchObject({ status: 200, body: { subject: { status: 'resolved', takenDown: true } } })

    expect((await listEvents('member')).body.records.map((r) => r.uri)).toEqual([picnic])
    expect(await getEvent('member', spam)).toMatchObject({ status: 400, body: { error: 'RecordNotFound' } })
    expect((await getEvent('member', picnic)).status).toBe(200)
    expect((await changes('member')).at(-1)).toEqual(expect.objectContaining({ kind: 'record.takenDown', subject: spam }))

    const forModerator = (await listEvents('moderator')).body.records
    expect(forModerator.find((r) => r.uri === spam)).toMatchObject({ value: { name: 'Cheap watches' }, takenDown: true })
    expect(forModerator.find((r) => r.uri === picnic)).not.toHaveProperty('takenDown')
    expect(await getEvent('admin', spam)).toMatchObject({ status: 200, body: { value: { name: 'Cheap watches' }, takenDown: true } })
  })

  it('refuses a second takedown, and takedowns of records outside the group’s spaces', async () => {
    expect(await emit('moderator', recordSubject(spam), 'takedown')).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    const post = `at://${as('outsider').did}/app.bsky.feed.post/3kabc`
    expect((await as('member').call('example.groups.createReport', { body: { group: group(), subject: recordSubject(post), reasonType: 'spam' } })).status).toBe(200)
    expect(await emit('moderator', recordSubject(post), 'takedown')).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
  })

  it('restores a record on reverse takedown', async () => {
    expect(await emit('moderator', recordSubject(spam), 'reverseTakedown')).toMatchObject({ status: 200, body: { subject: { takenDown: false } } })
    expect((await listEvents('member')).body.records.map((r) => r.uri).sort()).toEqual([picnic, spam].sort())
    expect(await getEvent('member', spam)).toMatchObject({ status: 200, body: { value: { name: 'Cheap watches' } } })
    expect((await changes('member')).some((c) => c.kind === 'record.restored' && c.subject === spam)).toBe(true)
    expect(await emit('moderator', recordSubject(spam), 'reverseTakedown')).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
  })

  it('takes down an account by ejecting and banning it; reversing lifts the ban', async () => {
    const target = account(as('member').did)
    expect((await as('admin').call('example.groups.createReport', { body: { group: group(), subject: target, reasonType: 'com.atproto.moderation.defs#reasonViolation' } })).status).toBe(200)
    // A moderator may not eject: taking down an account needs `eject` too.
    expect(await emit('moderator', target, 'takedown')).toMatchObject({ status: 400, body: { error: 'Forbidden' } })

    expect(await emit('admin', target, 'takedown')).toMatchObject({ status: 200, body: { subject: { takenDown: true } } })
    const members = await as('admin').call<{ members: { did: string }[] }>('example.groups.listMembers', { params: { group: group() } })
    expect(members.body.members.map((m) => m.did)).not.toContain(as('member').did)
    expect(await as('member').call('example.groups.requestJoin', { body: { group: group() } })).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    const bans = await as('admin').call<{ bans: { did: string }[] }>('example.groups.listBans', { params: { group: group() } })
    expect(bans.body.bans.map((b) => b.did)).toContain(as('member').did)
    const [latest] = (await as('moderator').call<{ history: { event: string; ban?: boolean }[] }>('example.groups.getSubject', { params: { group: group(), subject: as('member').did } })).body.history
    expect(latest).toMatchObject({ event: 'takedown', ban: true })

    expect(await emit('admin', target, 'reverseTakedown')).toMatchObject({ status: 200, body: { subject: { takenDown: false } } })
    // The ban is lifted, so the open group lets them back in.
    expect(await as('member').call('example.groups.requestJoin', { body: { group: group() } })).toMatchObject({ status: 200, body: { status: 'admitted' } })
  })

  it('ends an account takedown when its ban is lifted with unbanMember, and says so in the history', async () => {
    const target = account(as('member').did)
    expect(await emit('admin', target, 'takedown')).toMatchObject({ status: 200, body: { subject: { takenDown: true } } })
    expect((await as('admin').call('example.groups.unbanMember', { body: { group: group(), did: as('member').did } })).status).toBe(200)
    const detail = await as('moderator').call<{ subject: { takenDown?: boolean }; history: { event: string }[] }>('example.groups.getSubject', { params: { group: group(), subject: as('member').did } })
    expect(detail.body.subject.takenDown ?? false).toBe(false)
    expect(detail.body.history[0]).toMatchObject({ event: 'reverseTakedown' })
    // And it can be taken down again later.
    expect((await as('member').call('example.groups.requestJoin', { body: { group: group() } })).body).toMatchObject({ status: 'admitted' })
    expect(await emit('admin', target, 'takedown')).toMatchObject({ status: 200, body: { subject: { takenDown: true } } })
  })

  it('reversing an account takedown leaves a ban someone set before it', async () => {
    const target = account(as('member').did)
    const banned = async () => (await as('admin').call<{ bans: { did: string }[] }>('example.groups.listBans', { params: { group: group() } })).body.bans.map((b) => b.did)
    // Still taken down from the test before: reversed, they join again.
    expect(await emit('admin', target, 'reverseTakedown')).toMatchObject({ status: 200 })
    expect((await as('member').call('example.groups.requestJoin', { body: { group: group() } })).body).toMatchObject({ status: 'admitted' })

    // The owner ejects and bans them; a moderator's takedown comes after.
    expect((await as('owner').call('example.groups.ejectMember', { body: { group: group(), did: as('member').did, ban: true, note: 'Banned for harassment' } })).status).toBe(200)
    expect(await emit('admin', target, 'takedown')).toMatchObject({ status: 200, body: { subject: { takenDown: true } } })
    const [entry] = (await as('moderator').call<{ history: { event: string; ban?: boolean }[] }>('example.groups.getSubject', { params: { group: group(), subject: as('member').did } })).body.history
    expect(entry).toMatchObject({ event: 'takedown' })
    expect(entry!.ban).toBeUndefined()

    // Reversing the takedown does not undo the owner's ban.
    expect(await emit('admin', target, 'reverseTakedown')).toMatchObject({ status: 200, body: { subject: { takenDown: false } } })
    expect(await banned()).toContain(as('member').did)
    expect(await as('member').call('example.groups.requestJoin', { body: { group: group() } })).toMatchObject({ status: 400, body: { error: 'Forbidden' } })

    expect((await as('owner').call('example.groups.unbanMember', { body: { group: group(), did: as('member').did } })).status).toBe(200)
    expect(await banned()).not.toContain(as('member').did)
  })
})

/**
 * A ban decides whatever was waiting to let the person in (issue 22): taking down the
 * account of someone who asked to join denies their request, and an invite made for them
 * before is withdrawn; admitMember refuses a banned person whatever is pending.
 */
describe('a ban on someone waiting to join', () => {
  const approval = () => net.group('approval').did
  const inApproval = (by: Parameters<typeof net.as>[0], subject: unknown, event: string) =>
    as(by).call<{ subject: { takenDown?: boolean } }>('example.groups.emitModerationEvent', { body: { group: approval(), subject, event } })
  const report = (did: string) =>
    as('member').call('example.groups.createReport', { body: { group: approval(), subject: account(did), reasonType: 'com.atproto.moderation.defs#reasonSpam' } })
  const admit = (did: string) => as('owner').call('example.groups.admitMember', { body: { group: approval(), did, decision: 'admit' } })

  it('a takedown denies their pending request, logs it, and admitMember refuses them: Forbidden', async () => {
    const outsider = as('outsider').did
    expect((await as('outsider').call('example.groups.requestJoin', { body: { group: approval(), message: 'hi' } })).body).toEqual({ status: 'pending', seq: expect.any(Number) })
    const { id } = (await as('outsider').call<{ request: { id: string } }>('example.groups.getJoinRequest', { params: { group: approval() } })).body.request
    expect((await report(outsider)).status).toBe(200)
    expect(await inApproval('admin', account(outsider), 'takedown')).toMatchObject({ status: 200, body: { subject: { takenDown: true } } })

    expect((await as('outsider').call('example.groups.getJoinRequest', { params: { group: approval() } })).body).toEqual({})
    const pending = await as('admin').call<{ requests: { did: string }[] }>('example.groups.listJoinRequests', { params: { group: approval() } })
    expect(pending.body.requests.map((r) => r.did)).not.toContain(outsider)
    const log = await as('admin').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: approval(), limit: 100 } })
    expect(log.body.changes).toContainEqual(expect.objectContaining({ kind: 'joinRequest.denied', subject: id }))

    const refused = await admit(outsider)
    expect(refused).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect(refused.body.message).toMatch(/banned from this group.*unbanMember/)
    const members = await as('admin').call<{ members: { did: string }[] }>('example.groups.listMembers', { params: { group: approval() } })
    expect(members.body.members.map((m) => m.did)).not.toContain(outsider)
    const bans = await as('admin').call<{ bans: { did: string }[] }>('example.groups.listBans', { params: { group: approval() } })
    expect(bans.body.bans.map((b) => b.did)).toContain(outsider)
  })

  it('a takedown withdraws an invite made before it, so lifting the ban does not let them straight in', async () => {
    const outsider2 = as('outsider2').did
    const { uri } = (await as('owner').call<{ uri: string }>('example.groups.createInvite', { body: { group: approval(), invitee: outsider2 } })).body
    expect((await report(outsider2)).status).toBe(200)
    expect((await inApproval('admin', account(outsider2), 'takedown')).status).toBe(200)
    const invites = await as('owner').call<{ invites: { invitee: string }[] }>('example.groups.listInvites', { params: { group: approval() } })
    expect(invites.body.invites.map((i) => i.invitee)).not.toContain(outsider2)
    const log = await as('owner').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: approval(), limit: 100 } })
    expect(log.body.changes).toContainEqual(expect.objectContaining({ kind: 'invite.revoked', subject: uri }))

    // The ban lifted, they may ask again, and the group's approval applies as to anyone.
    expect((await inApproval('admin', account(outsider2), 'reverseTakedown')).status).toBe(200)
    expect((await as('outsider2').call('example.groups.requestJoin', { body: { group: approval() } })).body).toEqual({ status: 'pending', seq: expect.any(Number) })
  })
})
