import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

const net = useLocalNetwork()
type Name = Parameters<typeof net.as>[0]
const as = net.caller

const UNRESOLVABLE = 'did:plc:zzzzzzzzzzzzzzzzzzzzzzz9'
const approval = () => net.group('approval').did
const inviteOnly = () => net.group('invite').did
const open = () => net.group('open').did

/** Everything the writes below changed, as clients see it. */
async function observe() {
  const get = async (by: Name, method: string, params: Record<string, string | number>) => {
    const res = await as(by).call(method, { params })
    expect(res.status, `${method} ${JSON.stringify(res.body)}`).toBe(200)
    return res.body
  }
  return {
    ownRequest: await get('outsider', 'example.groups.getJoinRequest', { group: approval() }),
    requests: await get('admin', 'example.groups.listJoinRequests', { group: approval() }),
    approvalMembers: await get('owner', 'example.groups.listMembers', { group: approval() }),
    openMembers: await get('owner', 'example.groups.listMembers', { group: open() }),
    invites: await get('owner', 'example.groups.listInvites', { group: inviteOnly() }),
    changes: await get('owner', 'example.groups.listChanges', { group: approval(), limit: 100 }),
    inviteChanges: await get('owner', 'example.groups.listChanges', { group: inviteOnly(), limit: 100 }),
  }
}

describe('the host killed with SIGKILL and restarted on the same data', () => {
  it('loses nothing it acknowledged', async () => {
    const ok = async (p: Promise<{ status: number; body: unknown }>) => {
      const res = await p
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      return res.body as Record<string, unknown>
    }
    await ok(as('outsider').call('example.groups.requestJoin', { body: { group: approval(), message: 'still here?' } }))
    await ok(as('outsider2').call('example.groups.requestJoin', { body: { group: approval() } }))
    await ok(as('admin').call('example.groups.admitMember', { body: { group: approval(), did: as('outsider2').did, decision: 'admit', roles: ['moderator'] } }))
    const invited = await ok(as('owner').call('example.groups.createInvite', { body: { group: inviteOnly(), invitee: as('outsider').did, message: 'join us' } }))
    await ok(as('owner').call('example.groups.createInvite', { body: { group: inviteOnly(), invitee: UNRESOLVABLE } }))
    await ok(as('owner').call('example.groups.createInvite', { body: { group: inviteOnly(), invitee: as('outsider2').did } }))
    await ok(as('owner').call('example.groups.revokeInvite', { body: { group: inviteOnly(), invitee: as('outsider2').did } }))
    await ok(as('member').call('example.groups.leaveGroup', { body: { group: open() } }))

    const before = await observe()
    // The writes are really in what we observed, so an empty host could not pass below.
    expect(before.ownRequest).toMatchObject({ request: { did: as('outsider').did, message: 'still here?' } })
    expect(before.approvalMembers.members).toContainEqual(expect.objectContaining({ did: as('outsider2').did, roles: ['moderator'] }))
    expect((before.invites.invites as { uri: string }[]).map((i) => i.uri)).toEqual([invited.uri, `pending:${UNRESOLVABLE}`])
    expect((before.openMembers.members as { did: string }[]).map((m) => m.did)).not.toContain(as('member').did)

    await net.running.restartHost({ signal: 'SIGKILL' })

    expect(await observe()).toEqual(before)
    // The restarted host still works on that state: the invite redeems, the request is decided.
    expect((await as('outsider').call('example.groups.requestJoin', { body: { group: inviteOnly() } })).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
    await ok(as('owner').call('example.groups.admitMember', { body: { group: approval(), did: as('outsider').did, decision: 'deny' } }))
    expect((await as('outsider2').call('example.groups.requestJoin', { body: { group: inviteOnly() } })).body.error).toBe('InviteRequired')
  })
})
