import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'

const net = useLocalNetwork()
let app: CoreHarness
let owner: string

useSignedInCore(net, { groups: ['open', 'approval'] }, (signedIn) => ({ app, owner } = signedIn))

describe('sync progress against the real host', () => {
  it('reports each group of a pass, with the items read, and leaves unchanged groups unread', async () => {
    const open = net.group('open').did
    const approval = net.group('approval').did
    // Adding a group reads it whole: its items are counted.
    const added = (await app.call('sync.status', {})).groups.find((g) => g.groupDid === open)
    expect(added).toMatchObject({ accountDid: owner, phase: 'done', error: null })
    expect(added!.itemsRead).toBeGreaterThan(0)

    // Something changes in one group only; a pass reads that one and skips the other.
    await net.as('outsider2').call('example.groups.requestJoin', { body: { group: approval } })
    await app.call('sync.now', {})
    const status = await app.call('sync.status', {})
    expect(status.running).toBe(false)
    expect(status.groups.find((g) => g.groupDid === approval)).toMatchObject({ phase: 'done' })
    expect(status.groups.find((g) => g.groupDid === open)).toMatchObject({ phase: 'unchanged', itemsRead: 0 })
    expect((await app.call('groups.joinRequests', { accountDid: owner, groupDid: approval })).items.some((r) => r.did === net.as('outsider2').did)).toBe(true)
  })

  it('a refresh that brings nothing new leaves the members list as it was (same revision)', async () => {
    const open = net.group('open').did
    const before = await app.call('groups.members', { accountDid: owner, groupDid: open, offset: 0, limit: 10 })
    await app.call('groups.refresh', { accountDid: owner, groupDid: open })
    const after = await app.call('groups.members', { accountDid: owner, groupDid: open, offset: 0, limit: 10 })
    expect(after.revision).toBe(before.revision)
    expect(after.items).toEqual(before.items)
  })

  it('says plainly which group could not be synced while its host is down, and recovers', async () => {
    const approval = net.group('approval').did
    await net.running.restartHost({
      whileDown: async () => {
        // Force a full read (the change-log check would fail the same way).
        await expect(app.call('groups.refresh', { accountDid: owner, groupDid: approval })).rejects.toThrow()
        const failed = (await app.call('sync.status', {})).groups.find((g) => g.groupDid === approval)
        expect(failed).toMatchObject({ phase: 'failed', error: 'Could not reach the group’s host. Showing what was last seen.' })
        // What was cached is still there.
        expect((await app.call('groups.members', { accountDid: owner, groupDid: approval })).total).toBeGreaterThan(0)
      },
    })
    await app.call('groups.refresh', { accountDid: owner, groupDid: approval })
    expect((await app.call('sync.status', {})).groups.find((g) => g.groupDid === approval)).toMatchObject({ phase: 'done', error: null })
  })

  it('syncs a group that failed while its host was away as soon as an action to it goes through, not at the next pass', async () => {
    const open = net.group('open').did
    await net.running.restartHost({
      whileDown: async () => {
        await expect(app.call('groups.refresh', { accountDid: owner, groupDid: open })).rejects.toThrow()
        expect((await app.call('sync.status', {})).groups.find((g) => g.groupDid === open)).toMatchObject({ phase: 'failed' })
      },
    })
    // The host is back; no background pass runs here (syncIntervalMs 0). The invite goes
    // through, and with it the app knows the host answers: the group is no longer "failed".
    await app.call('groups.act', { accountDid: owner, groupDid: open, action: { kind: 'invite.create', invitee: net.as('outsider2').did } })
    await eventually(async () => (await app.call('outbox.list', {})).length === 0)
    await eventually(async () => (await app.call('sync.status', {})).groups.find((g) => g.groupDid === open && g.phase !== 'failed' && g.phase !== 'checking'))
    expect((await app.call('sync.status', {})).groups.find((g) => g.groupDid === open)).toMatchObject({ error: null })
  })
})
