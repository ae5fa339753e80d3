import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { mintForeignGroup } from '../../support/plc-identity.js'

const net = useLocalNetwork()

const ALL_ACTIONS = ['mod.read', 'mod.resolve', 'invite', 'admit', 'eject', 'role.assign', 'space.create', 'space.configure', 'space.delete', 'group.configure', 'repo.write']

describe('example.groups.getGroup', () => {
  it('shows the profile, the default roles, and the owner its standing', async () => {
    const group = net.group('open')
    const res = await net.as('owner').call('example.groups.getGroup', { params: { group: group.did } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      did: group.did,
      handle: 'open.groups.test',
      displayName: 'Open group',
      description: 'Demo group whose join policy is "open".',
      joinPolicy: 'open',
      roles: [
        { name: 'owner', actions: ALL_ACTIONS, assignable: ['owner', 'admin', 'moderator', 'member'] },
        { name: 'admin', actions: ALL_ACTIONS.filter((a) => a !== 'space.delete' && a !== 'group.configure'), assignable: ['moderator', 'member'] },
        { name: 'moderator', actions: ['mod.read', 'mod.resolve'], assignable: [] },
        { name: 'member', actions: [], assignable: [] },
      ],
      viewer: { roles: ['owner'], actions: ALL_ACTIONS },
    })
  })

  it("gives each caller their own roles and effective actions", async () => {
    const group = net.group('approval').did
    const viewer = async (name: 'admin' | 'moderator' | 'member') =>
      (await net.as(name).call<{ viewer: unknown; joinPolicy: string }>('example.groups.getGroup', { params: { group } })).body
    expect((await viewer('admin')).viewer).toEqual({ roles: ['admin'], actions: ALL_ACTIONS.filter((a) => a !== 'space.delete' && a !== 'group.configure') })
    expect((await viewer('moderator')).viewer).toEqual({ roles: ['moderator'], actions: ['mod.read', 'mod.resolve'] })
    const member = await viewer('member')
    expect(member).toMatchObject({ joinPolicy: 'approval', viewer: { roles: ['member'], actions: [] } })
  })

  it('lets a non-member read the group, with an empty viewer', async () => {
    const group = net.group('invite')
    const res = await net.as('outsider').call('example.groups.getGroup', { params: { group: group.did } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ did: group.did, handle: 'invite.groups.test', joinPolicy: 'invite', viewer: { roles: [], actions: [] } })
    expect((res.body.roles as unknown[]).length).toBe(4)
  })

  it('answers InvalidRequest "unknown group" for a DID nobody hosts', async () => {
    const res = await net.as('outsider').call('example.groups.getGroup', { params: { group: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa' } })
    expect(res).toMatchObject({ status: 400, body: { error: 'InvalidRequest', message: 'unknown group' } })
  })

  it('answers NotHosted for a group whose DID document names another host', async () => {
    const foreign = await mintForeignGroup(net.stack.plc)
    const res = await net.as('owner').call('example.groups.getGroup', { params: { group: foreign } })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('NotHosted')
    expect(res.body.message).toContain('http://127.0.0.1:9')
  })

  it('answers InvalidRequest for a malformed or missing group, never a 500', async () => {
    const caller = net.as('outsider')
    for (const params of [{}, { group: 'not-a-did' }]) {
      const res = await caller.call('example.groups.getGroup', { params })
      expect(res.status, JSON.stringify(params)).toBe(400)
      expect(res.body.error).toBe('InvalidRequest')
    }
  })
})
