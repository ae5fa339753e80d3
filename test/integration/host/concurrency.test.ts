import { describe, expect, it } from 'vitest'
import { useLocalNetwork, xrpc } from '../../support/local-network.js'

const net = useLocalNetwork()
type Name = Parameters<typeof net.as>[0]
const as = net.caller

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
      expect((await requester.call('example.groups.requestJoin', { body: { group: group() } })).body, `round ${i}`).toEqual({ status: 'pending', seq: expect.any(Number) })
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

/**
 * Two people able to configure the open group (the owner, and the admin made an owner
 * too) each give that up at the same moment: by leaving, by revoking their own owner
 * role, or by ejecting the other. Exactly one may win; the other must find the group
 * would be left with nobody to configure it (`LastConfigurer`), or that they were
 * ejected first (`Forbidden`). On PostgreSQL the configurers were counted before the
 * group's lock was taken, and both won (issue 22).
 */
describe('the last two configurers giving it up at the same moment', () => {
  const open = () => net.group('open').did
  const PAIR = ['owner', 'admin'] as const
  type Race = 'leave + leave' | 'leave + revoke' | 'eject + eject'
  const RACES: Race[] = ['leave + leave', 'leave + revoke', 'eject + eject']
  const ROUNDS_EACH = 8

  const membersOf = async () =>
    (await as('member').call<{ members: { did: string; roles: string[] }[] }>('example.groups.listMembers', { params: { group: open(), limit: 100 } })).body.members
  const configurers = async () => (await membersOf()).filter((m) => m.roles.includes('owner')).map((m) => m.did)

  /** Both of the pair members again, both holding owner. */
  async function restore(): Promise<void> {
    for (const name of PAIR) {
      if (!(await membersOf()).some((m) => m.did === as(name).did)) {
        expect((await as(name).call('example.groups.requestJoin', { body: { group: open() } })).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
      }
    }
    const holders = await configurers()
    const granter = PAIR.find((n) => holders.includes(as(n).did))!
    for (const name of PAIR) {
      if (!holders.includes(as(name).did)) {
        expect((await as(granter).call('example.groups.grantRole', { body: { group: open(), did: as(name).did, role: 'owner' } })).status).toBe(200)
      }
    }
    expect((await configurers()).sort()).toEqual(PAIR.map((n) => as(n).did).sort())
  }

  /** What `name` sends in a race, against `other`. */
  function move(race: Race, k: number, name: Name, other: Name): { method: string; body: Record<string, unknown> } {
    if (race === 'eject + eject') return { method: 'example.groups.ejectMember', body: { group: open(), did: as(other).did } }
    if (race === 'leave + revoke' && k === 1) return { method: 'example.groups.revokeRole', body: { group: open(), did: as(name).did, role: 'owner' } }
    return { method: 'example.groups.leaveGroup', body: { group: open() } }
  }

  it('leaves someone able to configure the group every time; the loser is refused', async () => {
    await restore()
    for (const race of RACES) {
      for (let i = 0; i < ROUNDS_EACH; i++) {
        // Who plays which part, and who sends first, alternate.
        const [a, b] = i % 2 === 0 ? PAIR : ([PAIR[1], PAIR[0]] as const)
        const moves = [move(race, 0, a, b), move(race, 1, b, a)]
        const tokens = await Promise.all([as(a).serviceAuth(moves[0]!.method), as(b).serviceAuth(moves[1]!.method)])
        const send = (k: number) => xrpc(net.stack.host.url, moves[k]!.method, { body: moves[k]!.body, headers: { authorization: `Bearer ${tokens[k]}` } })
        const results = i % 4 < 2 ? await Promise.all([send(0), send(1)]) : (await Promise.all([send(1), send(0)])).reverse()
        const label = `${race}, round ${i}: ${JSON.stringify(results.map((r) => r.body))}`

        expect(await configurers(), label).not.toHaveLength(0)
        expect(results.filter((r) => r.status === 200), label).toHaveLength(1)
        const loser = results.find((r) => r.status !== 200)!
        expect(loser, label).toMatchObject({ status: 400, body: { error: race === 'eject + eject' ? 'Forbidden' : 'LastConfigurer' } })
        await restore()
      }
    }
  }, 240_000)
})
