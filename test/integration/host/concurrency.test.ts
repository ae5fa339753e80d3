import { describe, expect, it } from 'vitest'
import { useLocalNetwork, xrpc, type Caller } from '../../support/local-network.js'

const net = useLocalNetwork()
const callers = new Map<string, Caller>()
type Name = Parameters<typeof net.as>[0]
const as = (name: Name) => callers.get(name) ?? callers.set(name, net.as(name)).get(name)!

const group = () => net.group('approval').did
const ADMIT = 'example.groups.admitMember'

/** Who asks, and what the owner and the admin decide, round by round. */
const ROUNDS: { requester: Name; owner: 'admit' | 'deny'; admin: 'admit' | 'deny' }[] = [
  { requester: 'outsider', owner: 'admit', admin: 'admit' },
  { requester: 'outsider2', owner: 'admit', admin: 'deny' },
  { requester: 'outsider', owner: 'deny', admin: 'admit' },
  { requester: 'outsider2', owner: 'deny', admin: 'deny' },
  { requester: 'outsider', owner: 'admit', admin: 'admit' },
  { requester: 'outsider2', owner: 'deny', admin: 'admit' },
  { requester: 'outsider', owner: 'admit', admin: 'deny' },
  { requester: 'outsider2', owner: 'admit', admin: 'admit' },
]

describe('two admins deciding the same request at the same moment', () => {
  it('lets exactly one decide; the other gets RequestNotFound, round after round', async () => {
    for (const [i, round] of ROUNDS.entries()) {
      const requester = as(round.requester)
      expect((await requester.call('example.groups.requestJoin', { body: { group: group() } })).body, `round ${i}`).toEqual({ status: 'pending' })
      const { id } = (await requester.call<{ request: { id: string } }>('example.groups.getJoinRequest', { params: { group: group() } })).body.request

      // Tokens first, so the two calls leave together and race inside the host; who
      // sends first alternates, so neither side wins merely by going first every time.
      const tokens = await Promise.all([as('owner').serviceAuth(ADMIT), as('admin').serviceAuth(ADMIT)])
      const decisions = [round.owner, round.admin]
      const send = (k: number) =>
        xrpc(net.stack.host.url, ADMIT, { body: { group: group(), did: requester.did, decision: decisions[k] }, headers: { authorization: `Bearer ${tokens[k]}` } })
      const results = i % 2 === 0 ? await Promise.all([send(0), send(1)]) : (await Promise.all([send(1), send(0)])).reverse()
      const won = results.filter((r) => r.status === 200)
      const lost = results.filter((r) => r.status !== 200)
      expect(won, `round ${i}: ${JSON.stringify(results.map((r) => r.body))}`).toHaveLength(1)
      expect(lost[0], `round ${i}`).toMatchObject({ status: 400, body: { error: 'RequestNotFound' } })
      const winner = results.indexOf(won[0]!)

      // The state is the winner's decision, recorded once.
      const admitted = decisions[winner] === 'admit'
      const members = await as('owner').call<{ members: { did: string; roles: string[] }[] }>('example.groups.listMembers', { params: { group: group() } })
      const entry = members.body.members.find((m) => m.did === requester.did)
      expect(entry?.roles, `round ${i}`).toEqual(admitted ? ['member'] : undefined)
      expect((await requester.call('example.groups.getJoinRequest', { params: { group: group() } })).body).toEqual({})
      const log = await as('owner').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: group(), limit: 100 } })
      const decided = log.body.changes.filter((c) => c.subject === id && /^joinRequest\.(admitted|denied)$/.test(c.kind))
      expect(decided, `round ${i}`).toEqual([expect.objectContaining({ kind: admitted ? 'joinRequest.admitted' : 'joinRequest.denied' })])

      if (admitted) expect((await requester.call('example.groups.leaveGroup', { body: { group: group() } })).status).toBe(200)
    }
  })
})
