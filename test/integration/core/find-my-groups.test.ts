import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { type CoreHarness, useSignedInCore } from '../../support/core-harness.js'

const net = useLocalNetwork()
let app: CoreHarness
let owner: string

// Signed in, with no group added by hand.
useSignedInCore(net, {}, (signedIn) => ({ app, owner } = signedIn))

const listed = async (accountDid: string) => (await app.call('groups.list', {})).filter((g) => g.accountDid === accountDid)

describe('finding the groups a person belongs to after sign-in', () => {
  it('adds every group where the organizer holds a role on the local network’s host, with that role', async () => {
    expect(await listed(owner)).toEqual([])
    expect(await app.call('groups.findMine', { accountDid: owner })).toEqual({ added: 3, unreachableHosts: [] })
    const groups = await listed(owner)
    expect(groups.map((g) => g.did).sort()).toEqual(['open', 'approval', 'invite'].map((n) => net.group(n as 'open').did).sort())
    for (const g of groups) {
      expect(g.roles).toEqual(['owner'])
      expect(g.syncedAt).not.toBeNull()
      expect(g.joinPolicy).toBe(net.stack.groups.find((s) => s.did === g.did)!.joinPolicy)
    }
  })

  it('adds nothing twice when asked again', async () => {
    expect(await app.call('groups.findMine', { accountDid: owner })).toEqual({ added: 0, unreachableHosts: [] })
    expect(await listed(owner)).toHaveLength(3)
  })

  it('finds a group made elsewhere (another device) on a host the app knows from an added group', async () => {
    const made = await net.as('owner').call<{ did: string }>('example.groups.createGroup', { body: { handle: 'made-elsewhere.groups.test', displayName: 'Made elsewhere', joinPolicy: 'open' } })
    expect(made.status).toBe(200)
    expect(await app.call('groups.findMine', { accountDid: owner })).toEqual({ added: 1, unreachableHosts: [] })
    expect((await listed(owner)).find((g) => g.did === made.body.did)).toMatchObject({ displayName: 'Made elsewhere', roles: ['owner'] })
  })

  it('finds each account its own groups, and none for someone in no group', async () => {
    const member = await app.signIn('member')
    expect((await app.call('groups.findMine', { accountDid: member })).added).toBe(3)
    const theirs = await listed(member)
    expect(theirs).toHaveLength(3)
    expect(theirs.every((g) => g.roles.join() === 'member' && g.accepted === false)).toBe(true)
    const outsider = await app.signIn('outsider')
    expect(await app.call('groups.findMine', { accountDid: outsider })).toEqual({ added: 0, unreachableHosts: [] })
    expect(await listed(outsider)).toEqual([])
  })
})
