import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { createIdResolver } from '../../../src/node/id-resolver.js'

const net = useLocalNetwork()
const as = net.caller

const create = (by: Parameters<typeof net.as>[0], body: Record<string, unknown>) =>
  as(by).call<{ did: string; handle: string; error?: string; message?: string }>('example.groups.createGroup', { body })

describe('example.groups.createGroup', () => {
  it('creates a group whose DID names this host, with the caller as owner', async () => {
    const res = await create('outsider', { handle: 'Book-Club.groups.test', displayName: 'Book club', description: 'We read.', joinPolicy: 'open' })
    expect(res.status).toBe(200)
    expect(res.body.handle).toBe('book-club.groups.test')
    expect(res.body.did).toMatch(/^did:plc:[a-z2-7]{24}$/)
    const created = res.body

    const doc = await createIdResolver(net.stack.plc).did.resolve(created.did)
    expect(doc?.alsoKnownAs).toEqual(['at://book-club.groups.test'])
    const groups = doc?.service?.find((s) => s.id === '#groups' || s.id === `${created.did}#groups`)
    expect(groups?.serviceEndpoint).toBe(net.stack.host.url)

    const view = await as('outsider').call('example.groups.getGroup', { params: { group: created.did } })
    expect(view.status).toBe(200)
    expect(view.body).toMatchObject({ did: created.did, handle: 'book-club.groups.test', displayName: 'Book club', description: 'We read.', joinPolicy: 'open' })
    expect((view.body.viewer as { roles: string[] }).roles).toEqual(['owner'])
    expect((view.body.roles as { name: string }[]).map((r) => r.name)).toEqual(['owner', 'admin', 'moderator', 'member'])
  })

  it('starts the group with its owner alone, a change log, and its join policy at work', async () => {
    const created = (await create('outsider', { handle: `starting${Date.now().toString(36)}.groups.test`, joinPolicy: 'open' })).body
    const members = await as('outsider').call<{ members: { did: string; roles: string[] }[] }>('example.groups.listMembers', { params: { group: created.did } })
    expect(members.body.members).toEqual([expect.objectContaining({ did: as('outsider').did, roles: ['owner'] })])
    const log = await as('outsider').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: created.did } })
    expect(log.body.changes).toEqual([expect.objectContaining({ kind: 'group.created', subject: created.did })])
    expect((await as('outsider2').call('example.groups.requestJoin', { body: { group: created.did } })).body).toEqual({ status: 'admitted', seq: expect.any(Number) })
  })

  it('refuses a handle already taken on this host, whatever its case: InvalidRequest', async () => {
    expect((await create('admin', { handle: 'Taken.groups.test', joinPolicy: 'open' })).status).toBe(200)
    for (const handle of ['open.groups.test', 'taken.groups.test', 'TAKEN.groups.test']) {
      const res = await create('member', { handle, joinPolicy: 'open' })
      expect(res.status, handle).toBe(400)
      expect(res.body.error).toBe('InvalidRequest')
      expect(res.body.message).toContain('taken')
    }
  })

  it('refuses an invalid handle or join policy: InvalidRequest', async () => {
    for (const body of [
      { handle: 'no-dot', joinPolicy: 'open' },
      { handle: 'has space.groups.test', joinPolicy: 'open' },
      { handle: '-leading.groups.test', joinPolicy: 'open' },
      { handle: 'fine.groups.test', joinPolicy: 'secret' },
      { handle: 'fine.groups.test' },
    ]) {
      const res = await create('member', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error).toBe('InvalidRequest')
    }
    // None of those left a group behind.
    expect((await create('member', { handle: 'fine.groups.test', joinPolicy: 'invite' })).status).toBe(200)
  })
})
