import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

/**
 * Invites a person can see (issue 28 point 4): listMyInvites answers the caller's own
 * outstanding invites across the host's groups, and declineInvite lets them turn one down.
 */
const net = useLocalNetwork()
const as = net.caller

interface MyInvite {
  uri: string
  group: string
  handle: string
  displayName?: string
  joinPolicy: string
  invitedBy?: string
  createdAt: string
  message?: string
}
const myInvites = (who: 'outsider' | 'outsider2', params: Record<string, string | number> = {}) =>
  as(who).call<{ invites: MyInvite[]; cursor?: string; error?: string }>('example.groups.listMyInvites', { params })
const invite = async (group: 'approval' | 'invite', message: string) => {
  const res = await as('owner').call<{ uri: string }>('example.groups.createInvite', { body: { group: net.group(group).did, invitee: as('outsider2').did, message } })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.uri
}

describe('a person’s own invites', () => {
  it('lists each outstanding invite to the caller with its group, who made it and its message, and nobody else’s', async () => {
    const toInviteOnly = await invite('invite', 'Come to the invite-only club')
    const toApproval = await invite('approval', 'Skip the queue')
    expect(toInviteOnly).toMatch(/^at:\/\//)

    const { status, body } = await myInvites('outsider2')
    expect(status).toBe(200)
    expect(body.invites).toEqual([
      expect.objectContaining({ uri: toInviteOnly, group: net.group('invite').did, handle: net.group('invite').handle, joinPolicy: 'invite', invitedBy: as('owner').did, message: 'Come to the invite-only club' }),
      expect.objectContaining({ uri: toApproval, group: net.group('approval').did, joinPolicy: 'approval', message: 'Skip the queue' }),
    ])
    // Someone else sees none of them: the invitee is always the caller.
    expect((await myInvites('outsider')).body.invites.map((i) => i.uri)).not.toContain(toInviteOnly)

    // One at a time, the pages neither repeat nor skip.
    const first = await myInvites('outsider2', { limit: 1 })
    const second = await myInvites('outsider2', { limit: 1, cursor: first.body.cursor! })
    expect([...first.body.invites, ...second.body.invites].map((i) => i.uri)).toEqual([toInviteOnly, toApproval])
    expect((await myInvites('outsider2', { cursor: 'not-a-cursor' })).body).toMatchObject({ error: 'InvalidRequest' })
  })

  it('turns one down: it leaves both lists and no longer redeems; accepting the other admits at once', async () => {
    const approval = net.group('approval').did
    expect((await as('outsider2').call('example.groups.declineInvite', { body: { group: approval } })).status).toBe(200)
    expect((await myInvites('outsider2')).body.invites.map((i) => i.group)).toEqual([net.group('invite').did])
    const groupList = await as('owner').call<{ invites: { invitee: string }[] }>('example.groups.listInvites', { params: { group: approval } })
    expect(groupList.body.invites.map((i) => i.invitee)).not.toContain(as('outsider2').did)
    const audit = await as('owner').call<{ entries: { kind: string; actor?: string }[] }>('example.groups.listAuditLog', { params: { group: approval, kind: 'invite.declined' } })
    expect(audit.body.entries[0]).toMatchObject({ kind: 'invite.declined', actor: as('outsider2').did })
    // A "no" is not answered by the same invite a minute later: the group cannot invite them again for now.
    const again = await as('owner').call('example.groups.createInvite', { body: { group: approval, invitee: as('outsider2').did, message: 'Please?' } })
    expect(again).toMatchObject({ status: 400, body: { error: 'InvalidRequest', message: expect.stringContaining('turned down an invite from this group') } })
    expect((await myInvites('outsider2')).body.invites.map((i) => i.group)).toEqual([net.group('invite').did])
    // Declined is gone: asking to join the approval group now waits like anyone's request.
    expect((await as('outsider2').call<{ status: string }>('example.groups.requestJoin', { body: { group: approval } })).body.status).toBe('pending')
    expect(await as('outsider2').call('example.groups.declineInvite', { body: { group: approval } })).toMatchObject({ status: 400, body: { error: 'InviteNotFound' } })

    // The invite-only group's invite admits when they ask, and then is no longer theirs to see.
    expect((await as('outsider2').call<{ status: string }>('example.groups.requestJoin', { body: { group: net.group('invite').did } })).body.status).toBe('admitted')
    expect((await myInvites('outsider2')).body.invites).toEqual([])
  })

  it('refuses a decline with nothing to decline, or for a group this host does not keep, in plain errors', async () => {
    expect(await as('outsider').call('example.groups.declineInvite', { body: { group: net.group('open').did } })).toMatchObject({ status: 400, body: { error: 'InviteNotFound' } })
    expect((await as('outsider').call('example.groups.declineInvite', { body: { group: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa' } })).body).toMatchObject({ error: 'InvalidRequest', message: 'unknown group' })
    expect((await as('outsider').call('example.groups.declineInvite', { body: {} })).body).toMatchObject({ error: 'InvalidRequest' })
  })
})
