import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

const net = useLocalNetwork()
type Name = Parameters<typeof net.as>[0]
const as = net.caller

const open = () => net.group('open').did
const leave = (name: Name, group = open()) => as(name).call('example.groups.leaveGroup', { body: { group } })
const rolesOf = async (name: Name, group = open()) => {
  const { body } = await as('owner').call<{ members: { did: string; roles: string[] }[] }>('example.groups.listMembers', { params: { group } })
  return body.members.find((m) => m.did === as(name).did)?.roles
}

describe('example.groups.leaveGroup', () => {
  it('answers NotAMember to someone who is not a member', async () => {
    expect(await leave('outsider')).toMatchObject({ status: 400, body: { error: 'NotAMember', message: expect.any(String) } })
  })

  it('makes a member a non-member: roles gone, member-only reads refused', async () => {
    expect(await rolesOf('member')).toEqual(['member'])
    expect(await leave('member')).toMatchObject({ status: 200, body: {} })
    expect(await rolesOf('member')).toBeUndefined()
    expect((await as('member').call('example.groups.listMembers', { params: { group: open() } })).body.error).toBe('Forbidden')
    const viewer = await as('member').call<{ viewer: unknown }>('example.groups.getGroup', { params: { group: open() } })
    expect(viewer.body.viewer).toEqual({ roles: [], actions: [] })
    const log = await as('owner').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: open(), limit: 100 } })
    expect(log.body.changes).toContainEqual(expect.objectContaining({ kind: 'member.left', subject: as('member').did }))
  })

  it('answers NotAMember to someone who has already left, who may then join again', async () => {
    expect((await leave('member')).body.error).toBe('NotAMember')
    expect((await as('member').call('example.groups.requestJoin', { body: { group: open() } })).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
    expect(await rolesOf('member')).toEqual(['member'])
  })

  it('lets a member holding powers leave, giving them all up', async () => {
    expect(await rolesOf('admin')).toEqual(['admin'])
    expect((await leave('admin')).status).toBe(200)
    expect(await rolesOf('admin')).toBeUndefined()
    const invite = await as('admin').call('example.groups.createInvite', { body: { group: open(), invitee: as('outsider2').did } })
    expect(invite.body.error).toBe('Forbidden')
  })

  it('refuses the only member able to configure the group: LastConfigurer, and they stay', async () => {
    expect(await leave('owner')).toMatchObject({ status: 400, body: { error: 'LastConfigurer', message: expect.any(String) } })
    expect(await rolesOf('owner')).toEqual(['owner'])
    const viewer = await as('owner').call<{ viewer: { actions: string[] } }>('example.groups.getGroup', { params: { group: open() } })
    expect(viewer.body.viewer.actions).toContain('group.configure')
  })

  it('lets an owner leave once another member can configure the group; that one is then the last', async () => {
    const grant = await as('owner').call('example.groups.grantRole', { body: { group: open(), did: as('moderator').did, role: 'owner' } })
    expect(grant.status).toBe(200)
    expect((await leave('owner')).status).toBe(200)
    expect((await as('owner').call('example.groups.listMembers', { params: { group: open() } })).body.error).toBe('Forbidden')
    expect(await leave('moderator')).toMatchObject({ status: 400, body: { error: 'LastConfigurer' } })
  })

  it('answers InvalidRequest for malformed input and an unknown group', async () => {
    expect((await as('member').call('example.groups.leaveGroup', { body: {} })).body.error).toBe('InvalidRequest')
    expect(await leave('member', 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa')).toMatchObject({ status: 400, body: { error: 'InvalidRequest', message: 'unknown group' } })
  })
})
