import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'

const net = useLocalNetwork()
let app: CoreHarness
let me: string
const approval = () => net.group('approval').did

useSignedInCore(net, { account: 'outsider' }, (signedIn) => ({ app, owner: me } = signedIn))

const summary = async (groupDid: string, accountDid = me) => (await app.call('groups.list', {})).find((g) => g.did === groupDid && g.accountDid === accountDid)!
const settled = () => eventually(async () => (await app.call('outbox.list', {})).every((o) => o.state !== 'queued' && o.state !== 'sending'))
const onHost = async () => (await net.as('outsider').call<{ request?: { message?: string } }>('example.groups.getJoinRequest', { params: { group: approval() } })).body

describe('joining a group as a member', () => {
  it('finds a group by handle and shows its name and join policy, with no role yet', async () => {
    const found = await app.call('groups.add', { accountDid: me, ref: net.group('approval').handle })
    expect(found).toMatchObject({ did: approval(), handle: net.group('approval').handle, joinPolicy: 'approval', roles: [], joinRequest: null, accepted: null })
  })

  it('asks to join with a message and sees the request waiting', async () => {
    await app.call('groups.act', { accountDid: me, groupDid: approval(), action: { kind: 'membership.request', message: 'I run the Tuesday walks' } })
    // Shown at once, before the host has it.
    expect((await summary(approval())).joinRequest).toMatchObject({ message: 'I run the Tuesday walks' })
    await settled()
    const waiting = await eventually(async () => ((await summary(approval())).joinRequest?.state === 'waiting' ? summary(approval()) : null))
    expect(waiting.joinRequest).toMatchObject({ message: 'I run the Tuesday walks', state: 'waiting' })
    expect(waiting.roles).toEqual([])
    expect((await onHost()).request).toMatchObject({ message: 'I run the Tuesday walks' })
  })

  it('withdraws the request, then asks again', async () => {
    await app.call('groups.act', { accountDid: me, groupDid: approval(), action: { kind: 'membership.cancelRequest' } })
    expect((await summary(approval())).joinRequest?.state).toBe('withdrawing')
    await settled()
    await eventually(async () => (await summary(approval())).joinRequest === null)
    expect(await onHost()).toEqual({})

    await app.call('groups.act', { accountDid: me, groupDid: approval(), action: { kind: 'membership.request' } })
    await settled()
    await eventually(async () => (await summary(approval())).joinRequest?.state === 'waiting')
    expect((await onHost()).request).toBeDefined()
  })

  it('once the organizer admits, shows the membership, and accepting it writes the acceptance the host counts', async () => {
    expect((await net.as('admin').call('example.groups.admitMember', { body: { group: approval(), did: me, decision: 'admit' } })).status).toBe(200)
    // A background sync picks it up (a non-member cannot read the change log, so their group is read each time).
    await app.call('sync.now', {})
    expect((await app.call('sync.status', {})).groups.filter((g) => g.phase === 'failed')).toEqual([])
    expect(await summary(approval())).toMatchObject({ roles: ['member'], joinRequest: null, accepted: false })

    await app.call('groups.act', { accountDid: me, groupDid: approval(), action: { kind: 'membership.accept' } })
    expect((await summary(approval())).accepted).toBe(true)
    await settled()
    await eventually(async () => {
      const members = await net.as('admin').call<{ members: { did: string; accepted: boolean }[] }>('example.groups.listMembers', { params: { group: approval(), q: me } })
      return members.body.members.find((m) => m.did === me)?.accepted
    })
    expect((await app.call('groups.refresh', { accountDid: me, groupDid: approval() })).accepted).toBe(true)
  })

  it('joins an open group at once', async () => {
    await app.call('groups.add', { accountDid: me, ref: net.group('open').did })
    await app.call('groups.act', { accountDid: me, groupDid: net.group('open').did, action: { kind: 'membership.request' } })
    await settled()
    await eventually(async () => (await summary(net.group('open').did)).roles.join() === 'member')
    expect((await summary(net.group('open').did)).joinRequest).toBeNull()
  })

  it('is told in plain words that an invite-only group needs an invite, and an invite is redeemed on request', async () => {
    const invite = net.group('invite').did
    await app.call('groups.add', { accountDid: me, ref: invite })
    await app.call('groups.act', { accountDid: me, groupDid: invite, action: { kind: 'membership.request' } })
    const refused = await eventually(async () => (await app.call('outbox.list', {})).find((o) => o.groupDid === invite && o.state === 'conflict'))
    expect(refused.detail).toBe('This group only admits people it has invited.')
    await eventually(async () => (await summary(invite)).joinRequest === null)

    expect((await net.as('admin').call('example.groups.createInvite', { body: { group: invite, invitee: me } })).status).toBe(200)
    await app.call('groups.act', { accountDid: me, groupDid: invite, action: { kind: 'membership.request' } })
    await settled()
    await eventually(async () => (await summary(invite)).roles.join() === 'member')
  })

  it('asks to join while the host is down: kept through a restart, sent once it is back', async () => {
    const made = await net.as('owner').call<{ did: string }>('example.groups.createGroup', { body: { handle: 'offline-join.groups.test', joinPolicy: 'approval' } })
    expect(made.status).toBe(200)
    const group = made.body.did
    await app.call('groups.add', { accountDid: me, ref: group })
    await net.running.restartHost({
      whileDown: async () => {
        await app.call('groups.act', { accountDid: me, groupDid: group, action: { kind: 'membership.request', message: 'From the train' } })
        await eventually(async () => (await app.call('outbox.list', {})).find((o) => o.groupDid === group && o.attempts > 0 && o.state === 'queued'))
        expect((await summary(group)).joinRequest).toMatchObject({ state: 'queued', message: 'From the train' })
        // The app is killed and started again while still offline.
        app = await app.restartCore()
        expect((await summary(group)).joinRequest).toMatchObject({ state: 'queued', message: 'From the train' })
      },
    })
    await app.call('sync.now', {})
    await eventually(async () => (await summary(group)).joinRequest?.state === 'waiting')
    const onTheHost = await net.as('owner').call<{ requests: { did: string; message?: string }[] }>('example.groups.listJoinRequests', { params: { group } })
    expect(onTheHost.body.requests).toEqual([expect.objectContaining({ did: me, message: 'From the train' })])
  })
})
