import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'

/**
 * Invites a person can see (issue 28 point 4), in the app's core against the real local
 * network: the person's own invites, by group name and inviter; accepting joins at once
 * (and accepts the membership); declining takes it off the group's list.
 */
const net = useLocalNetwork()
let app: CoreHarness
let me: string

useSignedInCore(net, { account: 'outsider2' }, (signedIn) => ({ app, owner: me } = signedIn))

const summary = async (groupDid: string) => (await app.call('groups.list', {})).find((g) => g.did === groupDid && g.accountDid === me)
const invite = async (group: 'invite' | 'approval', message: string) =>
  expect((await net.as('owner').call('example.groups.createInvite', { body: { group: net.group(group).did, invitee: me, message } })).status).toBe(200)

describe('the person’s own invites', () => {
  it('shows each invite with the group’s handle, who invited and their message, before the group is in the list', async () => {
    await invite('invite', 'Join the invite-only walks')
    await invite('approval', 'No need to wait')
    const { invites, unreachableHosts } = await app.call('invites.mine', { accountDid: me })
    expect(unreachableHosts).toEqual([])
    expect(invites).toEqual([
      expect.objectContaining({ groupDid: net.group('invite').did, groupHandle: net.group('invite').handle, joinPolicy: 'invite', message: 'Join the invite-only walks', invitedBy: { did: net.as('owner').did, handle: net.as('owner').account.handle } }),
      expect.objectContaining({ groupDid: net.group('approval').did, message: 'No need to wait' }),
    ])
    expect(await summary(net.group('invite').did)).toBeUndefined()
  })

  it('accepting joins at once and accepts the membership, on the host too', async () => {
    const group = net.group('invite').did
    await app.call('invites.accept', { accountDid: me, groupDid: group })
    expect(await summary(group)).toBeDefined()
    await eventually(async () => (await summary(group))?.roles.join() === 'member' && (await summary(group))?.accepted === true)
    await eventually(async () => {
      const members = await net.as('owner').call<{ members: { did: string; accepted: boolean }[] }>('example.groups.listMembers', { params: { group, q: me } })
      return members.body.members.find((m) => m.did === me)?.accepted
    })
    expect((await app.call('invites.mine', { accountDid: me })).invites.map((i) => i.groupDid)).toEqual([net.group('approval').did])
  })

  it('declining takes it off the group’s list; declining again says it is no longer open', async () => {
    const group = net.group('approval').did
    await app.call('invites.decline', { accountDid: me, groupDid: group })
    expect((await app.call('invites.mine', { accountDid: me })).invites).toEqual([])
    const listed = await net.as('owner').call<{ invites: { invitee: string }[] }>('example.groups.listInvites', { params: { group } })
    expect(listed.body.invites.map((i) => i.invitee)).not.toContain(me)
    await expect(app.call('invites.decline', { accountDid: me, groupDid: group })).rejects.toThrow(/no longer open/)
  })
})
