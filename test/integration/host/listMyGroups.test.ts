import { describe, expect, it } from 'vitest'
import { useLocalNetwork, xrpc } from '../../support/local-network.js'

const net = useLocalNetwork()
const as = net.caller

interface MyGroup {
  did: string
  handle: string
  displayName?: string
  joinPolicy: string
  roles: string[]
  joinedAt: string
  accepted: boolean
}
type Page = { groups: MyGroup[]; cursor?: string; error?: string; message?: string }

const mine = (name: Parameters<typeof net.as>[0], params: Record<string, string | number | undefined> = {}) =>
  as(name).call<Page>('example.groups.listMyGroups', { params })

/** Every page, following the cursor. */
async function all(name: Parameters<typeof net.as>[0], limit: number): Promise<{ groups: MyGroup[]; pages: number }> {
  const groups: MyGroup[] = []
  let cursor: string | undefined
  for (let pages = 1; pages < 20; pages++) {
    const res = await mine(name, { limit, cursor })
    expect(res.status).toBe(200)
    expect(res.body.groups.length).toBeLessThanOrEqual(limit)
    groups.push(...res.body.groups)
    cursor = res.body.cursor
    if (!cursor) return { groups, pages }
  }
  throw new Error('the cursor never ran out')
}

describe('example.groups.listMyGroups', () => {
  it('lists the groups where the caller holds a role, with that role and the join policy', async () => {
    const res = await mine('owner')
    expect(res.status).toBe(200)
    const byName = (name: 'open' | 'approval' | 'invite') => res.body.groups.find((g) => g.did === net.group(name).did)
    expect(res.body.groups).toHaveLength(3)
    for (const name of ['open', 'approval', 'invite'] as const) {
      expect(byName(name)).toMatchObject({ handle: net.group(name).handle, joinPolicy: net.group(name).joinPolicy, roles: ['owner'] })
      expect(Number.isNaN(Date.parse(byName(name)!.joinedAt))).toBe(false)
    }
    expect(res.body.cursor).toBeUndefined()

    const moderator = await mine('moderator')
    expect(moderator.body.groups.map((g) => g.roles)).toEqual([['moderator'], ['moderator'], ['moderator']])
    expect((await mine('member')).body.groups.map((g) => [g.roles.join(), g.accepted])).toEqual([
      ['member', false],
      ['member', false],
      ['member', false],
    ])
  })

  it('lists nothing for someone who belongs to no group', async () => {
    expect(await mine('outsider')).toMatchObject({ status: 200, body: { groups: [] } })
  })

  it('never shows anyone else’s groups: the caller is who their service auth says', async () => {
    const created = await as('outsider2').call<{ did: string }>('example.groups.createGroup', { body: { handle: 'quiet-club.groups.test', displayName: 'Quiet club', joinPolicy: 'approval' } })
    expect(created.status).toBe(200)
    expect((await mine('outsider2')).body.groups).toEqual([expect.objectContaining({ did: created.body.did, displayName: 'Quiet club', roles: ['owner'] })])
    for (const other of ['owner', 'admin', 'member', 'outsider'] as const) {
      expect((await mine(other)).body.groups.some((g) => g.did === created.body.did)).toBe(false)
    }
    // No parameter names a person: one passed anyway changes nothing.
    const res = await mine('outsider', { did: as('outsider2').did, actor: as('outsider2').did })
    expect(res.body.groups ?? []).toEqual([])
  })

  it('pages with an opaque cursor, without skipping or repeating a group', async () => {
    for (const handle of ['page-one', 'page-two', 'page-three']) {
      expect((await as('owner').call('example.groups.createGroup', { body: { handle: `${handle}.groups.test`, joinPolicy: 'open' } })).status).toBe(200)
    }
    const whole = (await mine('owner', { limit: 100 })).body.groups.map((g) => g.did)
    expect(whole).toHaveLength(6)
    expect([...whole].sort()).toEqual(whole)
    const paged = await all('owner', 2)
    expect(paged.pages).toBe(3)
    expect(paged.groups.map((g) => g.did)).toEqual(whole)
  })

  it('shows a group once the person is admitted, with the roles admission gave', async () => {
    expect((await as('outsider').call('example.groups.requestJoin', { body: { group: net.group('approval').did } })).body).toEqual({ status: 'pending', seq: expect.any(Number) })
    expect((await mine('outsider')).body.groups).toEqual([]) // a pending request is not a role
    expect((await as('admin').call('example.groups.admitMember', { body: { group: net.group('approval').did, did: as('outsider').did, decision: 'admit', roles: ['moderator'] } })).status).toBe(200)
    expect((await mine('outsider')).body.groups).toEqual([expect.objectContaining({ did: net.group('approval').did, roles: ['moderator'], joinPolicy: 'approval' })])
  })

  it('drops a group once the person is ejected, banned, or leaves', async () => {
    const group = net.group('open').did
    expect((await as('admin').call('example.groups.ejectMember', { body: { group, did: as('member').did, ban: true } })).status).toBe(200)
    expect((await mine('member')).body.groups.some((g) => g.did === group)).toBe(false)
    expect((await mine('member')).body.groups).toHaveLength(2)

    expect((await as('outsider').call('example.groups.leaveGroup', { body: { group: net.group('approval').did } })).status).toBe(200)
    expect((await mine('outsider')).body.groups).toEqual([])
  })

  it('answers InvalidRequest for a malformed cursor or a limit out of range', async () => {
    expect(await mine('owner', { cursor: '!!not-a-cursor' })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(await mine('owner', { limit: 0 })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(await mine('owner', { limit: 101 })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect(await mine('owner', { limit: 'many' })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
  })

  it('answers 401 without service auth, or with a token for another method', async () => {
    expect((await xrpc(net.stack.host.url, 'example.groups.listMyGroups')).status).toBe(401)
    const other = await as('owner').serviceAuth('example.groups.listMembers')
    expect((await xrpc(net.stack.host.url, 'example.groups.listMyGroups', { headers: { authorization: `Bearer ${other}` } })).status).toBe(401)
  })
})
