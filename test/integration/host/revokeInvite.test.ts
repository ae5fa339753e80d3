import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

const net = useLocalNetwork()
type Name = Parameters<typeof net.as>[0]
const as = net.caller

const UNRESOLVABLE = 'did:plc:zzzzzzzzzzzzzzzzzzzzzzz7'
const group = () => net.group('invite').did
const invite = (invitee: string) => as('admin').call<{ uri: string }>('example.groups.createInvite', { body: { group: group(), invitee } })
const revoke = (by: Name, invitee: string) => as(by).call('example.groups.revokeInvite', { body: { group: group(), invitee } })
const invitees = async () =>
  (await as('owner').call<{ invites: { invitee: string; uri: string }[] }>('example.groups.listInvites', { params: { group: group() } })).body.invites
let revokedUri = ''
const join = (name: Name) => as(name).call('example.groups.requestJoin', { body: { group: group() } })

describe('example.groups.revokeInvite', () => {
  it('answers InviteNotFound when there is no invite for that person', async () => {
    expect(await revoke('owner', as('outsider2').did)).toMatchObject({ status: 400, body: { error: 'InviteNotFound', message: expect.any(String) } })
  })

  it('refuses callers without invite: Forbidden, and the invite stays', async () => {
    const { uri } = (await invite(as('outsider2').did)).body
    for (const by of ['member', 'moderator', 'outsider'] as const) {
      const res = await revoke(by, as('outsider2').did)
      expect(res.status, by).toBe(400)
      expect(res.body.error, by).toBe('Forbidden')
    }
    expect(await invitees()).toEqual([expect.objectContaining({ uri, invitee: as('outsider2').did })])
  })

  it('revokes: the invite is gone and no longer redeems (InviteRequired)', async () => {
    const { uri } = (await invitees())[0]!
    revokedUri = uri
    expect(await revoke('admin', as('outsider2').did)).toMatchObject({ status: 200, body: {} })
    expect(await invitees()).toEqual([])
    expect(await join('outsider2')).toMatchObject({ status: 400, body: { error: 'InviteRequired' } })
    const log = await as('owner').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: group() } })
    expect(log.body.changes).toContainEqual(expect.objectContaining({ kind: 'invite.revoked', subject: uri }))
  })

  it('answers InviteNotFound for an invite already revoked', async () => {
    expect(await revoke('owner', as('outsider2').did)).toMatchObject({ status: 400, body: { error: 'InviteNotFound' } })
  })

  it('lets the person be invited again, with a new invite that redeems', async () => {
    const { uri } = (await invite(as('outsider2').did)).body
    expect(uri).toMatch(/^at:\/\//)
    expect(uri).not.toBe(revokedUri)
    expect(await join('outsider2')).toMatchObject({ status: 200, body: { status: 'admitted' } })
  })

  it('answers InviteNotFound for an invite already redeemed, and the member stays', async () => {
    expect(await revoke('owner', as('outsider2').did)).toMatchObject({ status: 400, body: { error: 'InviteNotFound' } })
    expect((await join('outsider2')).body.error).toBe('AlreadyMember')
  })

  it('revokes a pending:<did> invite, which can then be made again', async () => {
    expect((await invite(UNRESOLVABLE)).body.uri).toBe(`pending:${UNRESOLVABLE}`)
    expect((await revoke('owner', UNRESOLVABLE)).status).toBe(200)
    expect(await invitees()).toEqual([])
    expect(await invite(UNRESOLVABLE)).toMatchObject({ status: 200, body: { uri: `pending:${UNRESOLVABLE}` } })
    expect((await invitees()).map((i) => i.invitee)).toEqual([UNRESOLVABLE])
  })

  it('answers InvalidRequest for malformed input and an unknown group', async () => {
    for (const body of [{ group: group() }, { group: group(), invitee: 'nobody' }]) {
      const res = await as('owner').call('example.groups.revokeInvite', { body })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error).toBe('InvalidRequest')
    }
    const unknown = await as('owner').call('example.groups.revokeInvite', { body: { group: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa', invitee: UNRESOLVABLE } })
    expect(unknown).toMatchObject({ status: 400, body: { error: 'InvalidRequest', message: 'unknown group' } })
  })
})
