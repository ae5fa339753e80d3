import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

const net = useLocalNetwork()
type Name = Parameters<typeof net.as>[0]
const as = net.caller

const group = () => net.group('approval').did
const ask = (name: Name) => as(name).call('example.groups.requestJoin', { body: { group: group() } })
const decide = (by: Name, who: Name, decision: string, roles?: string[]) =>
  as(by).call('example.groups.admitMember', { body: { group: group(), did: as(who).did, decision, ...(roles ? { roles } : {}) } })
const rolesOf = async (name: Name) => {
  const { body } = await as('owner').call<{ members: { did: string; roles: string[] }[] }>('example.groups.listMembers', { params: { group: group() } })
  return body.members.find((m) => m.did === as(name).did)?.roles
}
const pending = async () =>
  (await as('owner').call<{ requests: { did: string }[] }>('example.groups.listJoinRequests', { params: { group: group() } })).body.requests.map((r) => r.did)
const changes = async () =>
  (await as('owner').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: group() } })).body.changes

describe('example.groups.admitMember', () => {
  it('refuses callers without admit: Forbidden, and the request stays pending', async () => {
    expect((await ask('outsider')).body).toEqual({ status: 'pending', seq: expect.any(Number) })
    for (const by of ['moderator', 'member', 'outsider2'] as const) {
      const res = await decide(by, 'outsider', 'admit')
      expect(res.status, by).toBe(400)
      expect(res.body.error, by).toBe('Forbidden')
    }
    expect(await pending()).toEqual([as('outsider').did])
  })

  it('admits a pending request as a member by default', async () => {
    const { id } = (await as('outsider').call<{ request: { id: string } }>('example.groups.getJoinRequest', { params: { group: group() } })).body.request
    expect(await decide('admin', 'outsider', 'admit')).toMatchObject({ status: 200, body: {} })
    expect(await rolesOf('outsider')).toEqual(['member'])
    expect((await as('outsider').call('example.groups.getJoinRequest', { params: { group: group() } })).body).toEqual({})
    expect(await pending()).toEqual([])
    expect((await ask('outsider')).body.error).toBe('AlreadyMember')
    expect(await changes()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'joinRequest.admitted', subject: id }),
        expect.objectContaining({ kind: 'member.joined', subject: as('outsider').did }),
      ]),
    )
  })

  it('answers RequestNotFound once the request is decided', async () => {
    expect(await decide('owner', 'outsider', 'admit')).toMatchObject({ status: 400, body: { error: 'RequestNotFound' } })
    expect((await decide('owner', 'outsider', 'deny')).body.error).toBe('RequestNotFound')
    expect(await rolesOf('outsider')).toEqual(['member'])
  })

  it('answers RequestNotFound for someone who never asked', async () => {
    expect(await decide('owner', 'outsider2', 'admit')).toMatchObject({ status: 400, body: { error: 'RequestNotFound' } })
    expect(await rolesOf('outsider2')).toBeUndefined()
  })

  it('denies: the request is decided, the person is not a member, and it cannot be admitted after', async () => {
    expect((await ask('outsider2')).body).toEqual({ status: 'pending', seq: expect.any(Number) })
    expect(await decide('admin', 'outsider2', 'deny')).toMatchObject({ status: 200, body: {} })
    expect((await as('outsider2').call('example.groups.getJoinRequest', { params: { group: group() } })).body).toEqual({})
    expect(await rolesOf('outsider2')).toBeUndefined()
    expect(await pending()).toEqual([])
    expect(await decide('owner', 'outsider2', 'admit')).toMatchObject({ status: 400, body: { error: 'RequestNotFound' } })
    expect(await rolesOf('outsider2')).toBeUndefined()
    expect((await changes()).map((c) => c.kind)).toContain('joinRequest.denied')
  })

  it('refuses roles the caller could not grant (NotAssignable) and unknown roles (InvalidRequest), deciding nothing', async () => {
    expect((await ask('outsider2')).body).toEqual({ status: 'pending', seq: expect.any(Number) })
    expect(await decide('admin', 'outsider2', 'admit', ['admin'])).toMatchObject({ status: 400, body: { error: 'NotAssignable' } })
    expect((await decide('admin', 'outsider2', 'admit', ['member', 'owner'])).body.error).toBe('NotAssignable')
    expect(await decide('admin', 'outsider2', 'admit', ['chief'])).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect((await decide('admin', 'outsider2', 'admit', [])).body.error).toBe('InvalidRequest')
    expect(await pending()).toEqual([as('outsider2').did])
    expect(await rolesOf('outsider2')).toBeUndefined()
  })

  it('admits with the given roles when the caller may grant them', async () => {
    expect((await decide('admin', 'outsider2', 'admit', ['moderator', 'member'])).status).toBe(200)
    expect((await rolesOf('outsider2'))?.sort()).toEqual(['member', 'moderator'])
    const viewer = await as('outsider2').call<{ viewer: { actions: string[] } }>('example.groups.getGroup', { params: { group: group() } })
    expect(viewer.body.viewer.actions).toContain('mod.read')
  })

  it('lets the owner admit someone as an admin', async () => {
    expect((await as('outsider').call('example.groups.leaveGroup', { body: { group: group() } })).status).toBe(200)
    expect((await ask('outsider')).body).toEqual({ status: 'pending', seq: expect.any(Number) })
    expect((await decide('owner', 'outsider', 'admit', ['admin'])).status).toBe(200)
    expect(await rolesOf('outsider')).toEqual(['admin'])
  })

  it('closes an invite made while the request was pending, so it cannot be redeemed later', async () => {
    expect((await as('outsider').call('example.groups.leaveGroup', { body: { group: group() } })).status).toBe(200)
    expect((await ask('outsider')).body).toEqual({ status: 'pending', seq: expect.any(Number) })
    expect((await as('owner').call('example.groups.createInvite', { body: { group: group(), invitee: as('outsider').did } })).status).toBe(200)
    expect((await decide('owner', 'outsider', 'admit')).status).toBe(200)
    const invites = await as('owner').call<{ invites: { invitee: string }[] }>('example.groups.listInvites', { params: { group: group() } })
    expect(invites.body.invites).toEqual([])
    // Leaving and asking again goes through approval, not through the spent invite.
    expect((await as('outsider').call('example.groups.leaveGroup', { body: { group: group() } })).status).toBe(200)
    expect((await ask('outsider')).body).toEqual({ status: 'pending', seq: expect.any(Number) })
  })

  it('answers InvalidRequest for malformed input and an unknown group, never a 500', async () => {
    for (const body of [
      {},
      { group: group(), did: as('outsider').did },
      { group: group(), did: as('outsider').did, decision: 'maybe' },
      { group: group(), did: 'not-a-did', decision: 'admit' },
      { group: group(), did: as('outsider').did, decision: 'admit', roles: 'member' },
    ]) {
      const res = await as('owner').call('example.groups.admitMember', { body })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error, JSON.stringify(body)).toBe('InvalidRequest')
    }
    const unknown = await as('owner').call('example.groups.admitMember', { body: { group: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa', did: as('outsider').did, decision: 'admit' } })
    expect(unknown).toMatchObject({ status: 400, body: { error: 'InvalidRequest', message: 'unknown group' } })
    expect(await pending()).toEqual([as('outsider').did])
  })
})
