import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

const net = useLocalNetwork()
type Name = Parameters<typeof net.as>[0]
const as = net.caller

interface Page {
  invites: { uri: string; invitee: string; createdAt: string; message?: string }[]
  cursor?: string
  error?: string
}
const group = () => net.group('invite').did
const list = (by: Name, params: Record<string, string | number | undefined> = {}) =>
  as(by).call<Page>('example.groups.listInvites', { params: { group: group(), ...params } })
const invite = (invitee: string, g = group()) => as('owner').call<{ uri: string }>('example.groups.createInvite', { body: { group: g, invitee } })
const strangers = ['did:plc:zzzzzzzzzzzzzzzzzzzzzzz2', 'did:plc:zzzzzzzzzzzzzzzzzzzzzzz3', 'did:plc:zzzzzzzzzzzzzzzzzzzzzzz4']

describe('example.groups.listInvites', () => {
  it('refuses callers without invite: Forbidden', async () => {
    for (const by of ['member', 'moderator', 'outsider'] as const) {
      const res = await list(by)
      expect(res.status, by).toBe(400)
      expect(res.body.error, by).toBe('Forbidden')
    }
  })

  it('answers an empty list when nobody is invited', async () => {
    expect(await list('admin')).toMatchObject({ status: 200, body: { invites: [] } })
    expect((await list('admin')).body.cursor).toBeUndefined()
  })

  it('lists outstanding invites oldest first, with their shape', async () => {
    const uris = []
    for (const did of [as('outsider').did, ...strangers, as('outsider2').did]) uris.push((await invite(did)).body.uri)
    const { status, body } = await list('admin')
    expect(status).toBe(200)
    expect(body.invites.map((i) => i.uri)).toEqual(uris)
    expect(body.invites[0]).toEqual({ uri: uris[0], invitee: as('outsider').did, createdAt: expect.any(String) })
    expect(body.cursor).toBeUndefined()
  })

  it('pages with limit and an opaque cursor, without skipping or repeating', async () => {
    const all = (await list('owner')).body.invites
    const seen: string[] = []
    let cursor: string | undefined
    let pages = 0
    do {
      const res = await list('owner', { limit: 2, cursor })
      expect(res.status).toBe(200)
      expect(res.body.invites.length).toBeLessThanOrEqual(2)
      seen.push(...res.body.invites.map((i) => i.uri))
      cursor = res.body.cursor
      pages++
    } while (cursor && pages < 10)
    expect(pages).toBe(3)
    expect(seen).toEqual(all.map((i) => i.uri))
  })

  it('answers InvalidRequest for a malformed cursor or a limit out of range', async () => {
    for (const params of [{ cursor: '%%%' }, { cursor: Buffer.from('abc').toString('base64url') }, { limit: 0 }, { limit: 101 }]) {
      const res = await list('owner', params)
      expect(res.status, JSON.stringify(params)).toBe(400)
      expect(res.body.error, JSON.stringify(params)).toBe('InvalidRequest')
    }
  })

  it('drops redeemed and revoked invites', async () => {
    expect((await as('outsider').call('example.groups.requestJoin', { body: { group: group() } })).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
    expect((await as('owner').call('example.groups.revokeInvite', { body: { group: group(), invitee: strangers[1] } })).status).toBe(200)
    expect((await list('owner')).body.invites.map((i) => i.invitee)).toEqual([strangers[0], strangers[2], as('outsider2').did])
  })

  it('lists only the group named', async () => {
    expect((await invite(strangers[0]!, net.group('open').did)).status).toBe(200)
    const open = await as('owner').call<Page>('example.groups.listInvites', { params: { group: net.group('open').did } })
    expect(open.body.invites.map((i) => i.invitee)).toEqual([strangers[0]])
    expect((await list('owner')).body.invites).toHaveLength(3)
  })

  it('answers InvalidRequest for an unknown group', async () => {
    const res = await as('owner').call('example.groups.listInvites', { params: { group: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa' } })
    expect(res).toMatchObject({ status: 400, body: { error: 'InvalidRequest', message: 'unknown group' } })
  })
})
