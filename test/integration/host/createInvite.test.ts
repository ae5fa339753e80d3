import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

const net = useLocalNetwork()
type Name = Parameters<typeof net.as>[0]
const as = net.caller

interface Invite {
  uri: string
  invitee: string
  createdAt: string
  message?: string
}
/** A well-formed did:plc that no PLC directory knows: someone with nowhere to be told. */
const UNRESOLVABLE = 'did:plc:zzzzzzzzzzzzzzzzzzzzzzzz'
const TID = '[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}'

const group = () => net.group('invite').did
const invite = (by: Name, invitee: string, extra: { group?: string; message?: string } = {}) =>
  as(by).call<{ uri: string; error?: string }>('example.groups.createInvite', { body: { group: extra.group ?? group(), invitee, ...(extra.message ? { message: extra.message } : {}) } })
const invites = async (g = group()) => (await as('owner').call<{ invites: Invite[] }>('example.groups.listInvites', { params: { group: g } })).body.invites

describe('example.groups.createInvite', () => {
  it('refuses callers without invite: Forbidden, and nothing is stored', async () => {
    for (const by of ['member', 'moderator', 'outsider2'] as const) {
      const res = await invite(by, as('outsider').did)
      expect(res.status, by).toBe(400)
      expect(res.body, by).toMatchObject({ error: 'Forbidden' })
    }
    expect(await invites()).toEqual([])
  })

  it('invites someone with an at:// address in the group’s repo, outstanding until used', async () => {
    const res = await invite('owner', as('outsider').did, { message: 'come along' })
    expect(res.status).toBe(200)
    expect(res.body.uri).toMatch(new RegExp(`^at://${group()}/example\\.groups\\.invite/${TID}$`))
    expect(await invites()).toEqual([{ uri: res.body.uri, invitee: as('outsider').did, createdAt: expect.any(String), message: 'come along' }])
    const log = await as('owner').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: group() } })
    expect(log.body.changes).toContainEqual(expect.objectContaining({ kind: 'invite.created', subject: res.body.uri }))
  })

  it('answers the outstanding invite again instead of making a second one', async () => {
    const [existing] = await invites()
    const again = await invite('admin', as('outsider').did, { message: 'a different message' })
    expect(again).toMatchObject({ status: 200, body: { uri: existing!.uri } })
    expect(await invites()).toEqual([existing])
  })

  it('answers pending:<did> for an invitee whose DID does not resolve yet, and keeps the invite', async () => {
    const res = await invite('admin', UNRESOLVABLE)
    expect(res).toMatchObject({ status: 200, body: { uri: `pending:${UNRESOLVABLE}` } })
    expect((await invites()).map((i) => [i.uri, i.invitee])).toEqual([
      [expect.stringMatching(/^at:\/\//), as('outsider').did],
      [`pending:${UNRESOLVABLE}`, UNRESOLVABLE],
    ])
    // The same person may be invited by another group too: the address names only them.
    expect((await invite('owner', UNRESOLVABLE, { group: net.group('approval').did })).body).toEqual({ uri: `pending:${UNRESOLVABLE}`, seq: expect.any(Number) })
    expect((await invites(net.group('approval').did)).map((i) => i.uri)).toEqual([`pending:${UNRESOLVABLE}`])
    expect(await invites()).toHaveLength(2)
  })

  it('answers AlreadyMember for a member, the inviter included', async () => {
    expect(await invite('owner', as('member').did)).toMatchObject({ status: 400, body: { error: 'AlreadyMember' } })
    expect((await invite('admin', as('admin').did)).body.error).toBe('AlreadyMember')
    expect((await invites()).map((i) => i.invitee)).not.toContain(as('member').did)
  })

  it('is redeemed when the invitee asks to join an invite-only group', async () => {
    const [mine] = await invites()
    expect((await as('outsider').call('example.groups.requestJoin', { body: { group: group() } })).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
    const members = await as('owner').call<{ members: { did: string; roles: string[] }[] }>('example.groups.listMembers', { params: { group: group() } })
    expect(members.body.members).toContainEqual(expect.objectContaining({ did: as('outsider').did, roles: ['member'] }))
    expect((await invites()).map((i) => i.invitee)).toEqual([UNRESOLVABLE])
    const log = await as('owner').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: group() } })
    expect(log.body.changes).toContainEqual(expect.objectContaining({ kind: 'invite.redeemed', subject: mine!.uri }))
    expect((await invite('owner', as('outsider').did)).body.error).toBe('AlreadyMember')
  })

  it('lets an invitee skip approval: the invite admits under any join policy', async () => {
    const approval = net.group('approval').did
    expect((await invite('admin', as('outsider2').did, { group: approval })).status).toBe(200)
    expect((await as('outsider2').call('example.groups.requestJoin', { body: { group: approval } })).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
    expect((await as('outsider2').call('example.groups.requestJoin', { body: { group: approval } })).body.error).toBe('AlreadyMember')
  })

  it('answers InvalidRequest for malformed input and an unknown group, never a 500', async () => {
    for (const body of [{ group: group() }, { group: group(), invitee: 'not-a-did' }, { invitee: as('outsider2').did }, { group: group(), invitee: as('outsider2').did, message: 'x'.repeat(3001) }]) {
      const res = await as('owner').call('example.groups.createInvite', { body })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error, JSON.stringify(body)).toBe('InvalidRequest')
    }
    const unknown = await invite('owner', as('outsider2').did, { group: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa' })
    expect(unknown).toMatchObject({ status: 400, body: { error: 'InvalidRequest', message: 'unknown group' } })
    expect((await invites()).map((i) => i.invitee)).toEqual([UNRESOLVABLE])
  })
})
