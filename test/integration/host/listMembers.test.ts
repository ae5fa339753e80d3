import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

const net = useLocalNetwork()

interface Member {
  did: string
  roles: string[]
  joinedAt: string
  accepted: boolean
}
type Page = { members: Member[]; cursor?: string; error?: string }

const list = (name: Parameters<typeof net.as>[0], params: Record<string, string | number | undefined>) =>
  net.as(name).call<Page>('example.groups.listMembers', { params: { group: net.group('open').did, ...params } })

describe('example.groups.listMembers', () => {
  it('lists every member with their roles, to any member', async () => {
    const res = await list('member', {})
    expect(res.status).toBe(200)
    const byDid = new Map(res.body.members.map((m) => [m.did, m]))
    const did = (name: Parameters<typeof net.as>[0]) => net.as(name).did
    expect(res.body.members).toHaveLength(4)
    expect(byDid.get(did('owner'))?.roles).toEqual(['owner'])
    expect(byDid.get(did('admin'))?.roles).toEqual(['admin'])
    expect(byDid.get(did('moderator'))?.roles).toEqual(['moderator'])
    expect(byDid.get(did('member'))).toMatchObject({ roles: ['member'], accepted: false })
    for (const m of res.body.members) expect(Number.isNaN(Date.parse(m.joinedAt))).toBe(false)
    expect(res.body.cursor).toBeUndefined()
  })

  it('shows a newcomer once they join', async () => {
    expect((await net.as('outsider').call('example.groups.requestJoin', { body: { group: net.group('open').did } })).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
    const res = await list('outsider', {})
    expect(res.body.members.find((m) => m.did === net.as('outsider').did)).toMatchObject({ roles: ['member'], accepted: false })
    expect(res.body.members).toHaveLength(5)
  })

  it('pages with an opaque cursor, without skipping or repeating anyone', async () => {
    const all = (await list('owner', {})).body.members.map((m) => m.did)
    const seen: string[] = []
    let cursor: string | undefined
    for (let i = 0; i < 10; i++) {
      const res = await list('owner', { limit: 2, cursor })
      expect(res.status).toBe(200)
      expect(res.body.members.length).toBeLessThanOrEqual(2)
      seen.push(...res.body.members.map((m) => m.did))
      cursor = res.body.cursor
      if (!cursor) break
    }
    expect(seen).toEqual(all)
    expect(new Set(seen).size).toBe(5)
  })

  it('filters by a piece of the DID, case-insensitively, with no wildcards', async () => {
    const admin = net.as('admin').did
    const piece = admin.slice(-10).toUpperCase()
    const res = await list('member', { q: piece })
    expect(res.body.members.map((m) => m.did)).toEqual([admin])
    expect((await list('member', { q: 'zzzz-no-such-member' })).body.members).toEqual([])
    expect((await list('member', { q: '%' })).body.members).toEqual([])
    expect((await list('member', { q: 'did:plc:' })).body.members).toHaveLength(5)
  })

  it('refuses non-members with Forbidden', async () => {
    const res = await list('outsider2', {})
    expect(res).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
  })

  it('answers InvalidRequest for a malformed cursor, a bad limit or an unknown group', async () => {
    expect((await list('member', { cursor: '!!not-a-cursor' })).body.error).toBe('InvalidRequest')
    expect((await list('member', { limit: 0 })).body.error).toBe('InvalidRequest')
    expect((await list('member', { limit: 101 })).body.error).toBe('InvalidRequest')
    const unknown = await net.as('member').call('example.groups.listMembers', { params: { group: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa' } })
    expect(unknown).toMatchObject({ status: 400, body: { error: 'InvalidRequest', message: 'unknown group' } })
  })
})
