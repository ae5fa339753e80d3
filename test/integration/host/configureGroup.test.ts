import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

const net = useLocalNetwork()
const as = net.caller

const group = () => net.group('open').did
const configure = (by: Parameters<typeof net.as>[0], changes: Record<string, unknown>) =>
  as(by).call('example.groups.configureGroup', { body: { group: group(), ...changes } })
const view = async () => (await as('member').call<Record<string, unknown>>('example.groups.getGroup', { params: { group: group() } })).body

describe('example.groups.configureGroup', () => {
  it('lets the owner change the profile and join policy, and the new policy applies', async () => {
    const res = await configure('owner', { displayName: 'Book club', description: 'We read.', joinPolicy: 'approval' })
    expect(res).toMatchObject({ status: 200, body: {} })
    expect(await view()).toMatchObject({ displayName: 'Book club', description: 'We read.', joinPolicy: 'approval', handle: 'open.groups.test' })
    expect((await as('outsider').call('example.groups.requestJoin', { body: { group: group() } })).body).toEqual({ status: 'pending', seq: expect.any(Number) })
    const log = await as('member').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: group() } })
    expect(log.body.changes.filter((c) => c.kind === 'group.configured')).toEqual([expect.objectContaining({ subject: group() })])
  })

  it('leaves out fields alone and clears a field set to empty', async () => {
    expect((await configure('owner', { description: '' })).status).toBe(200)
    const after = await view()
    expect(after).toMatchObject({ displayName: 'Book club', joinPolicy: 'approval' })
    expect(after.description).toBeUndefined()
  })

  it('refuses callers without group.configure, admins included: Forbidden', async () => {
    for (const name of ['admin', 'moderator', 'member', 'outsider2'] as const) {
      const res = await configure(name, { displayName: 'Hijacked' })
      expect(res, name).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    }
    expect((await view()).displayName).toBe('Book club')
  })

  it('answers InvalidRequest for an unknown join policy, an over-long name and an unknown group', async () => {
    expect(await configure('owner', { joinPolicy: 'closed' })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
    expect((await configure('owner', { displayName: 'x'.repeat(641) })).body.error).toBe('InvalidRequest')
    expect((await view()).joinPolicy).toBe('approval')
    const res = await as('owner').call('example.groups.configureGroup', { body: { group: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa', displayName: 'x' } })
    expect(res).toMatchObject({ status: 400, body: { error: 'InvalidRequest', message: 'unknown group' } })
  })
})
