import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

const net = useLocalNetwork()
const as = net.caller

interface Page {
  requests: { id: string; did: string; createdAt: string; message?: string }[]
  cursor?: string
  error?: string
}
const group = () => net.group('approval').did
const list = (name: Parameters<typeof net.as>[0], params: Record<string, string | number | undefined> = {}) =>
  as(name).call<Page>('example.groups.listJoinRequests', { params: { group: group(), ...params } })

describe('example.groups.listJoinRequests', () => {
  it('refuses callers without admit: Forbidden', async () => {
    for (const name of ['member', 'moderator', 'outsider'] as const) {
      const res = await list(name)
      expect(res.status, name).toBe(400)
      expect(res.body.error, name).toBe('Forbidden')
    }
  })

  it('answers an empty list when nobody is waiting', async () => {
    expect(await list('owner')).toMatchObject({ status: 200, body: { requests: [] } })
    expect((await list('owner')).body.cursor).toBeUndefined()
  })

  it('lists pending requests oldest first, to owners and admins alike', async () => {
    await as('outsider').call('example.groups.requestJoin', { body: { group: group(), message: 'first' } })
    await as('outsider2').call('example.groups.requestJoin', { body: { group: group() } })
    for (const name of ['owner', 'admin'] as const) {
      const { status, body } = await list(name)
      expect(status).toBe(200)
      expect(body.requests).toEqual([
        { id: expect.any(String), did: as('outsider').did, createdAt: expect.any(String), message: 'first' },
        { id: expect.any(String), did: as('outsider2').did, createdAt: expect.any(String) },
      ])
      expect(body.cursor).toBeUndefined()
    }
  })

  it('pages with limit and an opaque cursor, without skipping or repeating', async () => {
    const all = (await list('owner')).body.requests
    const first = await list('owner', { limit: 1 })
    expect(first.body.requests).toEqual([all[0]])
    expect(typeof first.body.cursor).toBe('string')
    const second = await list('owner', { limit: 1, cursor: first.body.cursor })
    expect(second.body.requests).toEqual([all[1]])
    expect(second.body.cursor).toBeUndefined()
  })

  it('answers InvalidRequest for a malformed cursor or a limit out of range', async () => {
    for (const params of [{ cursor: 'not a cursor' }, { cursor: Buffer.from('nospace').toString('base64url') }, { limit: 0 }, { limit: 101 }]) {
      const res = await list('owner', params)
      expect(res.status, JSON.stringify(params)).toBe(400)
      expect(res.body.error, JSON.stringify(params)).toBe('InvalidRequest')
    }
  })

  it('drops decided and withdrawn requests', async () => {
    await as('admin').call('example.groups.admitMember', { body: { group: group(), did: as('outsider').did, decision: 'deny' } })
    expect((await list('owner')).body.requests.map((r) => r.did)).toEqual([as('outsider2').did])
    await as('outsider2').call('example.groups.cancelJoinRequest', { body: { group: group() } })
    expect((await list('owner')).body.requests).toEqual([])
  })

  it('lists only the group named', async () => {
    await as('outsider').call('example.groups.requestJoin', { body: { group: group() } })
    expect((await list('owner')).body.requests.map((r) => r.did)).toEqual([as('outsider').did])
    const other = await as('owner').call<Page>('example.groups.listJoinRequests', { params: { group: net.group('invite').did } })
    expect(other).toMatchObject({ status: 200, body: { requests: [] } })
  })

  it('answers InvalidRequest for an unknown group', async () => {
    const res = await as('owner').call('example.groups.listJoinRequests', { params: { group: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa' } })
    expect(res).toMatchObject({ status: 400, body: { error: 'InvalidRequest', message: 'unknown group' } })
  })
})
