import { describe, expect, it } from 'vitest'
import { useLocalNetwork, xrpc } from '../../support/local-network.js'

const net = useLocalNetwork()
const as = net.caller

interface JoinRequest {
  id: string
  did: string
  createdAt: string
  message?: string
}
const group = () => net.group('approval').did
const own = (name: Parameters<typeof net.as>[0]) =>
  as(name).call<{ request?: JoinRequest }>('example.groups.getJoinRequest', { params: { group: group() } })

describe('example.groups.getJoinRequest', () => {
  it('answers no request before the caller has asked', async () => {
    expect(await own('outsider')).toMatchObject({ status: 200, body: {} })
    expect((await own('outsider')).body.request).toBeUndefined()
  })

  it('shows the caller their own pending request, as admins see it', async () => {
    expect((await as('outsider').call('example.groups.requestJoin', { body: { group: group(), message: 'hello there' } })).body).toEqual({ status: 'pending', seq: expect.any(Number) })
    const { status, body } = await own('outsider')
    expect(status).toBe(200)
    expect(body.request).toEqual({ id: expect.any(String), did: as('outsider').did, createdAt: expect.any(String), message: 'hello there' })
    expect(Date.parse(body.request!.createdAt)).toBeGreaterThan(Date.now() - 60_000)
    const listed = await as('owner').call<{ requests: JoinRequest[] }>('example.groups.listJoinRequests', { params: { group: group() } })
    expect(listed.body.requests).toEqual([body.request])
  })

  it('shows nobody else’s request: others see none', async () => {
    expect((await own('outsider2')).body).toEqual({})
    expect((await own('owner')).body).toEqual({})
  })

  it('returns no request once it is denied, and a new one if the person asks again', async () => {
    const before = (await own('outsider')).body.request!
    expect((await as('admin').call('example.groups.admitMember', { body: { group: group(), did: as('outsider').did, decision: 'deny' } })).status).toBe(200)
    expect(await own('outsider')).toMatchObject({ status: 200, body: {} })
    expect((await own('outsider')).body.request).toBeUndefined()

    expect((await as('outsider').call('example.groups.requestJoin', { body: { group: group() } })).body).toEqual({ status: 'pending', seq: expect.any(Number) })
    const again = (await own('outsider')).body.request!
    expect(again.id).not.toBe(before.id)
    expect(again.message).toBeUndefined()
  })

  it('returns no request once it is admitted', async () => {
    expect((await as('owner').call('example.groups.admitMember', { body: { group: group(), did: as('outsider').did, decision: 'admit' } })).status).toBe(200)
    expect((await own('outsider')).body).toEqual({})
  })

  it('answers InvalidRequest for an unknown or malformed group, never a 500', async () => {
    const unknown = await as('outsider2').call('example.groups.getJoinRequest', { params: { group: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa' } })
    expect(unknown).toMatchObject({ status: 400, body: { error: 'InvalidRequest', message: 'unknown group' } })
    for (const params of [{}, { group: 'not-a-did' }]) {
      const res = await as('outsider2').call('example.groups.getJoinRequest', { params })
      expect(res.status, JSON.stringify(params)).toBe(400)
      expect(res.body.error).toBe('InvalidRequest')
    }
  })

  it('answers 401 without service auth or with a token for another method', async () => {
    expect((await xrpc(net.stack.host.url, 'example.groups.getJoinRequest', { params: { group: group() } })).status).toBe(401)
    const token = await as('outsider2').serviceAuth('example.groups.requestJoin')
    const res = await xrpc(net.stack.host.url, 'example.groups.getJoinRequest', { params: { group: group() }, headers: { authorization: `Bearer ${token}` } })
    expect(res.status).toBe(401)
  })
})
