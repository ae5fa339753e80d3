import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'

const net = useLocalNetwork()
let app: CoreHarness
let owner: string

useSignedInCore(net, {}, (signedIn) => ({ app, owner } = signedIn))

let made = 0
const newGroup = async () => (await app.call('groups.create', { accountDid: owner, handle: `settings${Date.now().toString(36)}${made++}.groups.test`, joinPolicy: 'approval' })).did
const summary = async (groupDid: string) => (await app.call('groups.list', {})).find((g) => g.did === groupDid && g.accountDid === owner)!
const settled = () => eventually(async () => (await app.call('outbox.list', {})).every((o) => o.state === 'done' || o.state === 'conflict' || o.state === 'failed'))

describe('the group’s settings and roles, from the app (real host)', () => {
  it('changes the group’s name and join policy; the group is read again as the host now has it', async () => {
    const groupDid = await newGroup()
    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'group.configure', displayName: 'Harbour walkers', joinPolicy: 'invite' } })
    await eventually(async () => {
      const g = await summary(groupDid)
      return g.displayName === 'Harbour walkers' && g.joinPolicy === 'invite'
    })
    expect((await net.as('outsider').call('example.groups.requestJoin', { body: { group: groupDid } })).body.error).toBe('InviteRequired')
  })

  it('defines a role that may admit, gives it out, and deletes it once nobody holds it', async () => {
    const groupDid = await newGroup()
    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'role.put', name: 'greeter', actions: ['admit'], assignable: [] } })
    await eventually(async () => (await summary(groupDid)).allRoles.includes('greeter'))
    // The owner may hand the new role out at once.
    expect((await summary(groupDid)).assignable).toContain('greeter')

    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'role.delete', name: 'greeter' } })
    await eventually(async () => !(await summary(groupDid)).allRoles.includes('greeter'))
    await settled()

    // Who did it is on record, newest first, with the person's name.
    const { items } = await app.call('groups.auditLog', { accountDid: owner, groupDid })
    expect(items.slice(0, 2)).toEqual([
      expect.objectContaining({ kind: 'group.configured', what: 'changed the group’s settings or roles', actor: owner, actorHandle: net.as('owner').account.handle, asGroup: false }),
      expect.objectContaining({ kind: 'group.configured', actor: owner }),
    ])
    const byOthers = await app.call('groups.auditLog', { accountDid: owner, groupDid, actor: net.as('admin').did })
    expect(byOthers.items).toEqual([])
  })

  it('renames a role the group made: its holder keeps it under the new name, in the summary and the member list', async () => {
    const groupDid = await newGroup()
    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'role.put', name: 'greeter', actions: ['admit'], assignable: [] } })
    await eventually(async () => (await summary(groupDid)).allRoles.includes('greeter'))
    expect((await net.as('owner').call('example.groups.grantRole', { body: { group: groupDid, did: owner, role: 'greeter' } })).status).toBe(200)
    // Granted elsewhere (another device): read again.
    expect((await app.call('groups.refresh', { accountDid: owner, groupDid })).roles).toContain('greeter')

    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'role.put', name: 'welcomer', previousName: 'greeter', actions: ['admit'], assignable: [] } })
    await eventually(async () => (await summary(groupDid)).roles.includes('welcomer'))
    const g = await summary(groupDid)
    expect(g.allRoles).not.toContain('greeter')
    expect(g.roleDefinitions).toContainEqual({ name: 'welcomer', actions: ['admit'], assignable: [] })
    // The member list is read again with the group (a configured group may have renamed a role its members hold).
    await eventually(async () => {
      const { items } = await app.call('groups.members', { accountDid: owner, groupDid, offset: 0, limit: 50, q: '' })
      return items.find((m) => m.did === owner)?.roles.includes('welcomer') ?? false
    })
  })

  it('sets the group’s picture; the summary carries it as the host serves it, and it can be taken away', async () => {
    const groupDid = await newGroup()
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'group.configure', avatar: png } })
    await eventually(async () => (await summary(groupDid)).avatar === `data:image/png;base64,${png}`)
    await app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'group.configure', removeAvatar: true } })
    await eventually(async () => (await summary(groupDid)).avatar === null)
  })

  it('says in plain words why a role still held is not deleted, before anything is queued', async () => {
    const groupDid = await newGroup()
    await expect(app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'role.delete', name: 'owner' } })).rejects.toThrow('One member holds the owner role. Take it from them first.')
    await expect(app.call('groups.act', { accountDid: owner, groupDid, action: { kind: 'role.put', name: 'Not A Name', actions: [], assignable: [] } })).rejects.toThrow(/a role name is a lowercase letter/)
  })
})
