import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import type { StackAccountName, StackGroupName } from '../../../src/shared/stack-file.js'

const net = useLocalNetwork()

interface Change {
  seq: number
  kind: string
  subject?: string
}
type Answer = { seq?: number; status?: string; uri?: string; error?: string }

/** The group's log after `cursor` (all of it without one), read by its owner, with the cursor at its end. */
async function changes(group: string, cursor?: string): Promise<{ changes: Change[]; cursor: string }> {
  const res = await net.as('owner').call<{ changes: Change[]; cursor: string }>('example.groups.listChanges', { params: { group, limit: 100, ...(cursor ? { cursor } : {}) } })
  expect(res.status).toBe(200)
  return res.body
}

const ask = (who: StackAccountName, group: StackGroupName) => net.as(who).call<Answer>('example.groups.requestJoin', { body: { group: net.group(group).did } })
const requestId = async (who: StackAccountName, group: StackGroupName) =>
  (await net.as(who).call<{ request: { id: string } }>('example.groups.getJoinRequest', { params: { group: net.group(group).did } })).body.request.id

/**
 * Every way into a group tells the change log the same story (membership/admit.ts): the
 * request that was waiting is decided, the person joins, an invite for them is used up;
 * and the call answers the position of the last entry it made.
 */
describe('the change log of a way in', () => {
  it('redeeming an invite decides the pending request, as an admin admitting it would', async () => {
    const group = net.group('approval').did
    expect((await ask('outsider', 'approval')).body).toEqual({ status: 'pending', seq: expect.any(Number) })
    const id = await requestId('outsider', 'approval')
    const invited = await net.as('admin').call<Answer>('example.groups.createInvite', { body: { group, invitee: net.as('outsider').did } })
    expect(invited.status).toBe(200)
    const before = (await changes(group)).cursor

    const joined = await ask('outsider', 'approval')
    expect(joined.body).toEqual({ status: 'admitted', seq: expect.any(Number) })
    const made = (await changes(group, before)).changes
    expect(made.map((c) => [c.kind, c.subject])).toEqual([
      ['joinRequest.admitted', id],
      ['member.joined', net.as('outsider').did],
      ['invite.redeemed', invited.body.uri],
    ])
    expect(joined.body.seq).toBe(made.at(-1)!.seq)
    expect((await net.as('outsider').call('example.groups.getJoinRequest', { params: { group } })).body).toEqual({})
  })

  it('an admin admitting a request records the decision and the join, and answers where the log got to', async () => {
    const group = net.group('approval').did
    expect((await ask('outsider2', 'approval')).status).toBe(200)
    const id = await requestId('outsider2', 'approval')
    const before = (await changes(group)).cursor

    const admitted = await net.as('admin').call<Answer>('example.groups.admitMember', { body: { group, did: net.as('outsider2').did, decision: 'admit' } })
    expect(admitted.status).toBe(200)
    const made = (await changes(group, before)).changes
    expect(made.map((c) => [c.kind, c.subject])).toEqual([
      ['joinRequest.admitted', id],
      ['member.joined', net.as('outsider2').did],
    ])
    expect(admitted.body).toEqual({ seq: made.at(-1)!.seq })
  })

  it('a write that changes nothing answers no seq', async () => {
    const group = net.group('open').did
    const member = net.as('member').did
    const granted = await net.as('owner').call<Answer>('example.groups.grantRole', { body: { group, did: member, role: 'moderator' } })
    expect(granted.body).toEqual({ seq: expect.any(Number) })
    const again = await net.as('owner').call<Answer>('example.groups.grantRole', { body: { group, did: member, role: 'moderator' } })
    expect(again).toMatchObject({ status: 200, body: {} })
    expect(again.body.seq).toBeUndefined()
  })
})
