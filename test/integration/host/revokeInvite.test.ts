import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

const net = useLocalNetwork()
type Name = Parameters<typeof net.as>[0]
const as = net.caller

const UNRESOLVABLE = 'did:plc:zzzzzzzzzzzzzzzzzzzzzzz7'
const seeded = () => net.group('invite').did
const invite = (invitee: string, group = seeded(), by: Name = 'admin') => as(by).call<{ uri: string }>('example.groups.createInvite', { body: { group, invitee } })
const revoke = (by: Name, invitee: string, group = seeded()) => as(by).call('example.groups.revokeInvite', { body: { group, invitee } })
const invitees = async (group = seeded()) =>
  (await as('owner').call<{ invites: { invitee: string; uri: string }[] }>('example.groups.listInvites', { params: { group } })).body.invites
const join = (name: Name, group = seeded()) => as(name).call('example.groups.requestJoin', { body: { group } })

let made = 0
/** A new invite-only group of the owner's, for a test whose invitee joins (and so could not be invited to the seeded group again). */
async function newInviteGroup(): Promise<string> {
  const created = await as('owner').call<{ did: string }>('example.groups.createGroup', { body: { handle: `revoke${Date.now().toString(36)}${made++}.groups.test`, joinPolicy: 'invite' } })
  expect(created.status, JSON.stringify(created.body)).toBe(200)
  return created.body.did
}

describe('example.groups.revokeInvite', () => {
  it('answers InviteNotFound when there is no invite for that person', async () => {
    expect(await revoke('owner', as('outsider2').did)).toMatchObject({ status: 400, body: { error: 'InviteNotFound', message: expect.any(String) } })
  })

  it('refuses callers without invite: Forbidden, and the invite stays', async () => {
    const { uri } = (await invite(UNRESOLVABLE)).body
    for (const by of ['member', 'moderator', 'outsider'] as const) {
      const res = await revoke(by, UNRESOLVABLE)
      expect(res.status, by).toBe(400)
      expect(res.body.error, by).toBe('Forbidden')
    }
    expect(await invitees()).toContainEqual(expect.objectContaining({ uri, invitee: UNRESOLVABLE }))
    expect((await revoke('owner', UNRESOLVABLE)).status).toBe(200)
  })

  it('revokes: the invite is gone and no longer redeems (InviteRequired)', async () => {
    const { uri } = (await invite(as('outsider').did)).body
    expect(await revoke('admin', as('outsider').did)).toMatchObject({ status: 200, body: {} })
    expect((await invitees()).map((i) => i.invitee)).not.toContain(as('outsider').did)
    expect(await join('outsider')).toMatchObject({ status: 400, body: { error: 'InviteRequired' } })
    const log = await as('owner').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: seeded() } })
    expect(log.body.changes).toContainEqual(expect.objectContaining({ kind: 'invite.revoked', subject: uri }))
  })

  it('answers InviteNotFound for an invite already revoked', async () => {
    expect((await invite(UNRESOLVABLE)).status).toBe(200)
    expect((await revoke('owner', UNRESOLVABLE)).status).toBe(200)
    expect(await revoke('owner', UNRESOLVABLE)).toMatchObject({ status: 400, body: { error: 'InviteNotFound' } })
  })

  it('lets the person be invited again, with a new invite that redeems', async () => {
    const group = await newInviteGroup()
    const first = (await invite(as('outsider2').did, group, 'owner')).body.uri
    expect((await revoke('owner', as('outsider2').did, group)).status).toBe(200)
    const { uri } = (await invite(as('outsider2').did, group, 'owner')).body
    expect(uri).toMatch(/^at:\/\//)
    expect(uri).not.toBe(first)
    expect(await join('outsider2', group)).toMatchObject({ status: 200, body: { status: 'admitted' } })
  })

  it('answers InviteNotFound for an invite already redeemed, and the member stays', async () => {
    const group = await newInviteGroup()
    expect((await invite(as('outsider2').did, group, 'owner')).status).toBe(200)
    expect((await join('outsider2', group)).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
    expect(await revoke('owner', as('outsider2').did, group)).toMatchObject({ status: 400, body: { error: 'InviteNotFound' } })
    expect((await join('outsider2', group)).body.error).toBe('AlreadyMember')
  })

  it('revokes a pending:<did> invite, which can then be made again', async () => {
    expect((await invite(UNRESOLVABLE)).body.uri).toBe(`pending:${UNRESOLVABLE}`)
    expect((await revoke('owner', UNRESOLVABLE)).status).toBe(200)
    expect((await invitees()).map((i) => i.invitee)).not.toContain(UNRESOLVABLE)
    expect(await invite(UNRESOLVABLE)).toMatchObject({ status: 200, body: { uri: `pending:${UNRESOLVABLE}` } })
    expect((await invitees()).map((i) => i.invitee)).toContain(UNRESOLVABLE)
  })

  it('answers InvalidRequest for malformed input and an unknown group', async () => {
    for (const body of [{ group: seeded() }, { group: seeded(), invitee: 'nobody' }]) {
      const res = await as('owner').call('example.groups.revokeInvite', { body })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error).toBe('InvalidRequest')
    }
    const unknown = await as('owner').call('example.groups.revokeInvite', { body: { group: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa', invitee: UNRESOLVABLE } })
    expect(unknown).toMatchObject({ status: 400, body: { error: 'InvalidRequest', message: 'unknown group' } })
  })
})
