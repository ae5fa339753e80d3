import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

const net = useLocalNetwork()
const as = net.caller
const group = () => net.group('open').did
const history = (by: Parameters<typeof net.as>[0], who: Parameters<typeof net.as>[0]) =>
  as(by).call<{ member: boolean; formerMember: boolean; leftAt?: string; how?: string; banned: boolean; error?: string }>('example.groups.getMemberHistory', { params: { group: group(), did: as(who).did } })

describe('getMemberHistory: someone’s past in the group, for those who decide who comes in', () => {
  it('says someone new was never a member', async () => {
    expect(await history('admin', 'outsider2')).toMatchObject({ status: 200, body: { member: false, formerMember: false, banned: false } })
  })

  it('says who left, and when; who was removed and banned', async () => {
    expect((await as('outsider').call('example.groups.requestJoin', { body: { group: group() } })).status).toBe(200)
    expect((await as('outsider').call('example.groups.leaveGroup', { body: { group: group() } })).status).toBe(200)
    expect(await history('admin', 'outsider')).toMatchObject({ status: 200, body: { member: false, formerMember: true, how: 'left', leftAt: expect.any(String), banned: false } })

    expect((await as('outsider2').call('example.groups.requestJoin', { body: { group: group() } })).status).toBe(200)
    expect((await history('admin', 'outsider2')).body).toMatchObject({ member: true, formerMember: false })
    expect((await as('admin').call('example.groups.ejectMember', { body: { group: group(), did: as('outsider2').did, ban: true } })).status).toBe(200)
    expect((await history('owner', 'outsider2')).body).toMatchObject({ member: false, formerMember: true, how: 'ejected', banned: true })
  })

  it('is not for members who neither admit nor eject', async () => {
    expect(await history('member', 'outsider')).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect(await history('moderator', 'outsider')).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
  })
})
