import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

const net = useLocalNetwork()
const as = net.caller

const group = () => net.group('approval').did
const cancel = (name: Parameters<typeof net.as>[0], g = group()) => as(name).call('example.groups.cancelJoinRequest', { body: { group: g } })
const ask = (name: Parameters<typeof net.as>[0]) => as(name).call('example.groups.requestJoin', { body: { group: group() } })
const pendingDids = async () =>
  (await as('owner').call<{ requests: { did: string }[] }>('example.groups.listJoinRequests', { params: { group: group() } })).body.requests.map((r) => r.did)

describe('example.groups.cancelJoinRequest', () => {
  it('answers RequestNotFound when the caller never asked', async () => {
    expect(await cancel('outsider2')).toMatchObject({ status: 400, body: { error: 'RequestNotFound', message: expect.any(String) } })
  })

  it('withdraws the caller’s pending request: it is no longer pending anywhere', async () => {
    expect((await ask('outsider')).body).toEqual({ status: 'pending', seq: expect.any(Number) })
    const { id } = (await as('outsider').call<{ request: { id: string } }>('example.groups.getJoinRequest', { params: { group: group() } })).body.request
    expect(await pendingDids()).toEqual([as('outsider').did])

    expect(await cancel('outsider')).toMatchObject({ status: 200, body: {} })
    expect((await as('outsider').call('example.groups.getJoinRequest', { params: { group: group() } })).body).toEqual({})
    expect(await pendingDids()).toEqual([])
    const log = await as('owner').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: group() } })
    expect(log.body.changes).toContainEqual(expect.objectContaining({ kind: 'joinRequest.cancelled', subject: id }))
  })

  it('answers RequestNotFound for a second cancel, and to an admin deciding the withdrawn request', async () => {
    expect(await cancel('outsider')).toMatchObject({ status: 400, body: { error: 'RequestNotFound' } })
    const admit = await as('admin').call('example.groups.admitMember', { body: { group: group(), did: as('outsider').did, decision: 'admit' } })
    expect(admit).toMatchObject({ status: 400, body: { error: 'RequestNotFound' } })
    expect((await ask('outsider')).body).toEqual({ status: 'pending', seq: expect.any(Number) })
  })

  it('cancels only the caller’s own request in the group named', async () => {
    expect((await ask('outsider2')).body).toEqual({ status: 'pending', seq: expect.any(Number) })
    expect((await cancel('outsider2', net.group('open').did)).body.error).toBe('RequestNotFound')
    expect((await cancel('member')).body.error).toBe('RequestNotFound')
    expect(await pendingDids()).toEqual([as('outsider').did, as('outsider2').did])
  })

  it('answers RequestNotFound once the request has been decided', async () => {
    expect((await as('owner').call('example.groups.admitMember', { body: { group: group(), did: as('outsider').did, decision: 'admit' } })).status).toBe(200)
    expect((await cancel('outsider')).body.error).toBe('RequestNotFound')
    expect((await as('outsider').call('example.groups.requestJoin', { body: { group: group() } })).body.error).toBe('AlreadyMember')
  })

  it('answers InvalidRequest for an unknown or malformed group', async () => {
    expect(await cancel('outsider2', 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa')).toMatchObject({ status: 400, body: { error: 'InvalidRequest', message: 'unknown group' } })
    expect((await as('outsider2').call('example.groups.cancelJoinRequest', { body: {} })).body.error).toBe('InvalidRequest')
    expect(await pendingDids()).toEqual([as('outsider2').did])
  })
})
