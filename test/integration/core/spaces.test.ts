import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'

const net = useLocalNetwork()
let app: CoreHarness
let owner: string
const groupDid = () => net.group('open').did
const spaces = () => app.call('groups.spaces', { accountDid: owner, groupDid: groupDid() })
const act = (action: Record<string, unknown>) =>
  app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: action as never })

useSignedInCore(net, { groups: ['open'] }, (signedIn) => ({ app, owner } = signedIn))

describe('spaces through the core', () => {
  it('lists the group’s space index, with the built-in spaces marked', async () => {
    const list = await spaces()
    expect(list.filter((s) => s.wellKnown).map((s) => s.type).sort()).toEqual(['members', 'meta'])
  })

  it('creates a space, refuses a second of the same kind from the index, updates and deletes it', async () => {
    const forum = { kind: 'space.create', type: 'example.groups.forum', skey: 'self', name: 'Forum', readableBy: ['member', 'admin', 'owner'], credentialScopes: [{ role: 'admin', scopes: ['*'] }] }
    await act(forum)
    const created = await eventually(async () => (await spaces()).find((s) => s.type === 'example.groups.forum' && !s.pending))
    expect(created).toMatchObject({ uri: `at://${groupDid()}/space/example.groups.forum/self`, name: 'Forum', wellKnown: false })

    await expect(act(forum)).rejects.toMatchObject({ code: 'SpaceExists', message: 'This group already has that space: “Forum”.' })

    await act({ kind: 'space.update', space: created.uri, name: 'Discussion' })
    await eventually(async () => (await spaces()).find((s) => s.uri === created.uri && s.name === 'Discussion' && !s.pending))

    await act({ kind: 'space.delete', space: created.uri })
    await eventually(async () => !(await spaces()).some((s) => s.uri === created.uri))
  })

  it('explains that built-in spaces cannot be deleted', async () => {
    const meta = (await spaces()).find((s) => s.type === 'meta')!
    await act({ kind: 'space.delete', space: meta.uri })
    const refused = await eventually(async () => (await app.call('outbox.list', {})).find((o) => o.state === 'conflict'))
    expect(refused.detail).toBe('The group’s built-in spaces cannot be changed or deleted.')
  })
})
