import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

const net = useLocalNetwork()
const as = net.caller

const group = () => net.group('invite').did
const call = (by: Parameters<typeof net.as>[0], method: 'grantRole' | 'revokeRole', did: string, role: string) =>
  as(by).call(`example.groups.${method}`, { body: { group: group(), did, role } })
const rolesOf = async (did: string) => {
  const res = await as('member').call<{ members: { did: string; roles: string[] }[] }>('example.groups.listMembers', { params: { group: group() } })
  return res.body.members.find((m) => m.did === did)?.roles
}

describe('example.groups.revokeRole', () => {
  it('takes moderator from a moderator, who can then no longer moderate', async () => {
    const moderator = as('moderator').did
    expect((await as('moderator').call('example.groups.listSubjects', { params: { group: group() } })).status).toBe(200)
    expect(await call('admin', 'revokeRole', moderator, 'moderator')).toMatchObject({ status: 200, body: {} })
    expect(await rolesOf(moderator)).toEqual([])
    expect((await as('moderator').call('example.groups.listSubjects', { params: { group: group() } })).body.error).toBe('Forbidden')
    const log = await as('owner').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: group() } })
    expect(log.body.changes.filter((c) => c.kind === 'member.roleRevoked')).toEqual([expect.objectContaining({ subject: moderator })])
  })

  it('refuses an admin revoking admin or owner: NotAssignable', async () => {
    expect((await call('admin', 'revokeRole', as('admin').did, 'admin')).body.error).toBe('NotAssignable')
    expect((await call('admin', 'revokeRole', as('owner').did, 'owner')).body.error).toBe('NotAssignable')
    expect(await rolesOf(as('owner').did)).toEqual(['owner'])
  })

  it('refuses callers without role.assign (Forbidden), non-members (NotAMember) and unknown roles (InvalidRequest)', async () => {
    expect(await call('member', 'revokeRole', as('member').did, 'member')).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect(await call('owner', 'revokeRole', as('outsider').did, 'member')).toMatchObject({ status: 400, body: { error: 'NotAMember' } })
    expect(await call('owner', 'revokeRole', as('member').did, 'wizard')).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
  })

  it('refuses the only owner giving up owner: LastConfigurer', async () => {
    const res = await call('owner', 'revokeRole', as('owner').did, 'owner')
    expect(res).toMatchObject({ status: 400, body: { error: 'LastConfigurer' } })
    expect(await rolesOf(as('owner').did)).toEqual(['owner'])
  })

  it('lets the owner step down once someone else can configure the group', async () => {
    expect((await call('owner', 'grantRole', as('admin').did, 'owner')).status).toBe(200)
    expect((await call('owner', 'revokeRole', as('owner').did, 'owner')).status).toBe(200)
    expect(await rolesOf(as('owner').did)).toEqual([])
    const viewer = await as('owner').call<{ viewer: unknown }>('example.groups.getGroup', { params: { group: group() } })
    expect(viewer.body.viewer).toEqual({ roles: [], actions: [] })
    // The new owner is now the last configurer in turn.
    expect((await call('admin', 'revokeRole', as('admin').did, 'owner')).body.error).toBe('LastConfigurer')
    // Dropping admin keeps owner, so that is fine.
    expect((await call('admin', 'revokeRole', as('admin').did, 'admin')).status).toBe(200)
    expect(await rolesOf(as('admin').did)).toEqual(['owner'])
  })

  it('changes nothing when the member does not hold the role', async () => {
    expect((await call('admin', 'revokeRole', as('member').did, 'moderator')).status).toBe(200)
    expect(await rolesOf(as('member').did)).toEqual(['member'])
  })
})
