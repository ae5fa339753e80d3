import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { moderationEvents } from '../../support/host-db.js'

const net = useLocalNetwork()
const as = net.caller

const group = () => net.group('open').did
const eject = (by: Parameters<typeof net.as>[0], did: string, note?: string) =>
  as(by).call('example.groups.ejectMember', { body: { group: group(), did, ...(note ? { note } : {}) } })
const memberDids = async () =>
  (await as('owner').call<{ members: { did: string }[] }>('example.groups.listMembers', { params: { group: group() } })).body.members.map((m) => m.did)

describe('example.groups.ejectMember', () => {
  it('lets an admin remove a member, who then loses access', async () => {
    const member = as('member').did
    expect((await as('member').call('example.groups.listMembers', { params: { group: group() } })).status).toBe(200)
    expect(await eject('admin', member, 'spam, repeatedly')).toMatchObject({ status: 200, body: {} })
    expect(await memberDids()).not.toContain(member)
    expect((await as('member').call('example.groups.listMembers', { params: { group: group() } })).body.error).toBe('Forbidden')
    const viewer = await as('member').call<{ viewer: unknown }>('example.groups.getGroup', { params: { group: group() } })
    expect(viewer.body.viewer).toEqual({ roles: [], actions: [] })
  })

  it('logs the removal as a change and in the moderation history', async () => {
    const member = as('member').did
    const log = await as('owner').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: group() } })
    expect(log.body.changes.filter((c) => c.kind === 'member.ejected')).toEqual([expect.objectContaining({ subject: member })])
    expect(moderationEvents(net.running, group())).toEqual([{ subjectKey: member, kind: 'eject', data: { note: 'spam, repeatedly' }, createdBy: as('admin').did }])
  })

  it('answers NotAMember for someone who is not (or no longer) a member', async () => {
    expect(await eject('admin', as('member').did)).toMatchObject({ status: 400, body: { error: 'NotAMember' } })
    expect((await eject('admin', as('outsider').did)).body.error).toBe('NotAMember')
  })

  it('refuses an admin ejecting the owner or an admin: NotAssignable', async () => {
    expect(await eject('admin', as('owner').did)).toMatchObject({ status: 400, body: { error: 'NotAssignable' } })
    expect((await eject('admin', as('admin').did)).body.error).toBe('NotAssignable')
    expect(await memberDids()).toEqual(expect.arrayContaining([as('owner').did, as('admin').did]))
  })

  it('refuses callers without eject: Forbidden', async () => {
    expect(await eject('moderator', as('admin').did)).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect((await eject('outsider', as('moderator').did)).body.error).toBe('Forbidden')
  })

  it('refuses removing the last member able to configure the group: LastConfigurer', async () => {
    expect(await eject('owner', as('owner').did)).toMatchObject({ status: 400, body: { error: 'LastConfigurer' } })
    expect(await memberDids()).toContain(as('owner').did)
  })

  it('lets the owner remove an admin', async () => {
    expect((await eject('owner', as('admin').did)).status).toBe(200)
    expect(await memberDids()).not.toContain(as('admin').did)
  })

  it('answers InvalidRequest for malformed input and an unknown group', async () => {
    expect((await as('owner').call('example.groups.ejectMember', { body: { group: group() } })).body.error).toBe('InvalidRequest')
    expect((await as('owner').call('example.groups.ejectMember', { body: { group: group(), did: as('moderator').did, note: 'x'.repeat(3001) } })).body.error).toBe('InvalidRequest')
    const res = await as('owner').call('example.groups.ejectMember', { body: { group: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa', did: as('moderator').did } })
    expect(res).toMatchObject({ status: 400, body: { error: 'InvalidRequest', message: 'unknown group' } })
  })
})
