import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'

/** Inviting a pasted list at once (issue 27 point 5), against the real local network. */
const net = useLocalNetwork()
let app: CoreHarness
let owner: string
const group = () => net.group('invite').did
useSignedInCore(net, { account: 'owner' }, (signedIn) => ({ app, owner } = signedIn))

const handleOf = (name: 'outsider' | 'outsider2' | 'member') => net.stack.accounts.find((a) => a.name === name)!.handle
const onHost = async () => (await net.as('owner').call<{ invites: { invitee: string }[] }>('example.groups.listInvites', { params: { group: group(), limit: 100 } })).body.invites.map((i) => i.invitee)
const settled = () => eventually(async () => (await app.call('outbox.list', {})).every((o) => o.state !== 'queued' && o.state !== 'sending'))

describe('inviting a list of people at once', () => {
  it('says per person what became of them, invites the rest together, and sends nothing twice when the list is sent again', async () => {
    await app.call('groups.add', { accountDid: owner, ref: group() })
    const list = [handleOf('outsider'), handleOf('member'), 'nobody-at-all.test', handleOf('outsider'), net.as('outsider2').did]
    const { results } = await app.call('invites.createMany', { accountDid: owner, groupDid: group(), refs: list, message: 'Spring walks' })
    expect(results.map((r) => [r.ref, r.outcome])).toEqual([
      [handleOf('outsider'), 'invited'],
      [handleOf('member'), 'alreadyMember'],
      ['nobody-at-all.test', 'notFound'],
      [handleOf('outsider'), 'duplicate'],
      [net.as('outsider2').did, 'invited'],
    ])
    expect(results[2]!.detail).toMatch(/No account has the handle @nobody-at-all\.test/)
    await settled()
    await eventually(async () => (await onHost()).filter((did) => [net.as('outsider').did, net.as('outsider2').did].includes(did)).length === 2)
    const before = (await onHost()).length

    const again = await app.call('invites.createMany', { accountDid: owner, groupDid: group(), refs: list })
    expect(again.results.map((r) => r.outcome)).toEqual(['alreadyInvited', 'alreadyMember', 'notFound', 'duplicate', 'alreadyInvited'])
    await settled()
    expect((await onHost()).length).toBe(before)
  })

  it('refuses an empty list or one of more than 500, in plain words', async () => {
    await expect(app.call('invites.createMany', { accountDid: owner, groupDid: group(), refs: [] })).rejects.toThrow()
    await expect(app.call('invites.createMany', { accountDid: owner, groupDid: group(), refs: Array.from({ length: 501 }, (_, i) => `p${i}.test`) })).rejects.toThrow()
  })
})
