import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

const net = useLocalNetwork()
const as = net.caller

const group = () => net.group('approval').did
const grant = (by: Parameters<typeof net.as>[0], did: string, role: string) =>
  as(by).call('example.groups.grantRole', { body: { group: group(), did, role } })
const rolesOf = async (did: string) => {
  const res = await as('owner').call<{ members: { did: string; roles: string[] }[] }>('example.groups.listMembers', { params: { group: group() } })
  return res.body.members.find((m) => m.did === did)?.roles
}
const changes = async () =>
  (await as('owner').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: group(), limit: 100 } })).body.changes

describe('example.groups.grantRole', () => {
  it('lets an admin make a member a moderator, who can then moderate', async () => {
    const member = as('member').did
    expect(await grant('admin', member, 'moderator')).toMatchObject({ status: 200, body: {} })
    expect(await rolesOf(member)).toEqual(['member', 'moderator'])
    const viewer = await as('member').call<{ viewer: { actions: string[] } }>('example.groups.getGroup', { params: { group: group() } })
    expect(viewer.body.viewer.actions).toEqual(['mod.read', 'mod.resolve'])
    expect((await as('member').call('example.groups.listSubjects', { params: { group: group() } })).status).toBe(200)
    expect((await changes()).filter((c) => c.kind === 'member.roleGranted')).toEqual([expect.objectContaining({ subject: member })])
  })

  it('changes nothing, and logs nothing, when the member already holds the role', async () => {
    expect((await grant('admin', as('member').did, 'moderator')).status).toBe(200)
    expect(await rolesOf(as('member').did)).toEqual(['member', 'moderator'])
    expect((await changes()).filter((c) => c.kind === 'member.roleGranted')).toHaveLength(1)
  })

  it('refuses an admin granting admin or owner: NotAssignable', async () => {
    for (const role of ['admin', 'owner']) {
      const res = await grant('admin', as('moderator').did, role)
      expect(res, role).toMatchObject({ status: 400, body: { error: 'NotAssignable' } })
    }
    expect(await rolesOf(as('moderator').did)).toEqual(['moderator'])
  })

  it('lets the owner grant admin', async () => {
    expect((await grant('owner', as('moderator').did, 'admin')).status).toBe(200)
    expect(await rolesOf(as('moderator').did)).toEqual(['admin', 'moderator'])
  })

  it('refuses callers without role.assign: Forbidden', async () => {
    // "member" now holds moderator, which still grants no role.assign.
    const res = await grant('member', as('member').did, 'member')
    expect(res).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect((await grant('outsider', as('member').did, 'member')).body.error).toBe('Forbidden')
  })

  it('refuses a non-member target: NotAMember', async () => {
    const res = await grant('admin', as('outsider').did, 'member')
    expect(res).toMatchObject({ status: 400, body: { error: 'NotAMember' } })
  })

  it('refuses a role the group does not have: InvalidRequest', async () => {
    const res = await grant('owner', as('member').did, 'wizard')
    expect(res).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(res.body.message).toContain('wizard')
  })

  it('answers InvalidRequest for malformed input and an unknown group', async () => {
    for (const body of [{ group: group(), did: 'nope', role: 'member' }, { group: group(), did: as('member').did }, { group: group(), did: as('member').did, role: 'x'.repeat(65) }]) {
      expect((await as('owner').call('example.groups.grantRole', { body })).body.error, JSON.stringify(body)).toBe('InvalidRequest')
    }
    const res = await as('owner').call('example.groups.grantRole', { body: { group: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa', did: as('member').did, role: 'member' } })
    expect(res).toMatchObject({ status: 400, body: { error: 'InvalidRequest', message: 'unknown group' } })
  })
})
