import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { moderationEvents } from '../../support/host-db.js'

const net = useLocalNetwork()
const as = net.caller

const group = () => net.group('open').did
const rejoin = (name: Parameters<typeof net.as>[0]) => as(name).call('example.groups.requestJoin', { body: { group: group() } })
const bans = (by: Parameters<typeof net.as>[0]) =>
  as(by).call<{ bans: { did: string; createdBy: string; createdAt: string; note?: string }[]; error?: string }>('example.groups.listBans', { params: { group: group() } })

describe('ejectMember with ban, unbanMember, listBans', () => {
  it('without ban, an ejected member of an open group may rejoin at once (as before)', async () => {
    expect((await as('admin').call('example.groups.ejectMember', { body: { group: group(), did: as('member').did } })).status).toBe(200)
    expect((await rejoin('member')).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
  })

  it('with ban, the ejected member cannot rejoin the open group: Forbidden, in plain words', async () => {
    const res = await as('admin').call('example.groups.ejectMember', { body: { group: group(), did: as('member').did, note: 'threats', ban: true } })
    expect(res).toMatchObject({ status: 200, body: {} })
    const again = await rejoin('member')
    expect(again).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect(again.body.message).toMatch(/may not rejoin until one of its admins lifts the ban/)
    // Still not a member: the refusal changed nothing.
    const view = await as('member').call<{ viewer: unknown }>('example.groups.getGroup', { params: { group: group() } })
    expect(view.body.viewer).toEqual({ roles: [], actions: [] })
    expect(moderationEvents(net.running, group()).at(-1)).toEqual({ subjectKey: as('member').did, kind: 'eject', data: { note: 'threats', ban: true }, createdBy: as('admin').did })
  })

  it('refuses admitting a banned person: Forbidden, naming the way back', async () => {
    const res = await as('owner').call('example.groups.admitMember', { body: { group: group(), did: as('member').did, decision: 'admit' } })
    expect(res).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect(res.body.message).toMatch(/unbanMember/)
  })

  it('refuses inviting a banned person: Forbidden, naming the way back', async () => {
    const res = await as('owner').call('example.groups.createInvite', { body: { group: group(), invitee: as('member').did } })
    expect(res).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect(res.body.message).toMatch(/unbanMember/)
  })

  it('lists bans to holders of eject only', async () => {
    const listed = await bans('admin')
    expect(listed.status).toBe(200)
    expect(listed.body.bans).toEqual([{ did: as('member').did, createdBy: as('admin').did, createdAt: expect.any(String), note: 'threats' }])
    expect(await bans('moderator')).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
  })

  it('logs the ban for holders of eject, not for plain members', async () => {
    const log = async (by: Parameters<typeof net.as>[0]) =>
      (await as(by).call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: group(), limit: 100 } })).body.changes
    expect((await log('admin')).filter((c) => c.kind === 'ban.created')).toEqual([expect.objectContaining({ subject: as('member').did })])
    expect((await rejoin('outsider')).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
    expect((await log('outsider')).some((c) => c.kind.startsWith('ban.'))).toBe(false)
  })

  it('lifting needs eject: a moderator is refused, and the ban stays', async () => {
    expect(await as('moderator').call('example.groups.unbanMember', { body: { group: group(), did: as('member').did } })).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect((await rejoin('member')).body.error).toBe('Forbidden')
  })

  it('once an admin lifts the ban, the person may rejoin', async () => {
    expect(await as('admin').call('example.groups.unbanMember', { body: { group: group(), did: as('member').did } })).toMatchObject({ status: 200, body: {} })
    expect((await bans('admin')).body.bans).toEqual([])
    expect((await rejoin('member')).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
  })

  it('answers NotBanned for lifting a ban nobody has', async () => {
    const res = await as('admin').call('example.groups.unbanMember', { body: { group: group(), did: as('outsider2').did } })
    expect(res).toMatchObject({ status: 400, body: { error: 'NotBanned' } })
  })

  it('banning keeps a person out of an invite-only group too, whoever invited them before', async () => {
    // Invited while not a member; banned after joining another way and being ejected.
    const invite = net.group('invite').did
    expect((await as('owner').call('example.groups.createInvite', { body: { group: invite, invitee: as('outsider2').did } })).status).toBe(200)
    expect((await as('outsider2').call('example.groups.requestJoin', { body: { group: invite } })).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
    expect((await as('owner').call('example.groups.ejectMember', { body: { group: invite, did: as('outsider2').did, ban: true } })).status).toBe(200)
    expect((await as('outsider2').call('example.groups.requestJoin', { body: { group: invite } })).body.error).toBe('Forbidden')
  })
})
