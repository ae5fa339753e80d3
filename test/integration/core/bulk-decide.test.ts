import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'

const net = useLocalNetwork()
let app: CoreHarness
let owner: string

useSignedInCore(net, {}, (signedIn) => ({ app, owner } = signedIn))

describe('deciding many join requests at once (real PDS sign-in, real host)', () => {
  it('selects every open request matching a search, admits them in one go, and each lands once', async () => {
    const group = await app.call('groups.create', { accountDid: owner, handle: `bulk${Date.now().toString(36)}.groups.test`, joinPolicy: 'approval' })
    const groupDid = group.did
    const fromMeetup = (['outsider', 'outsider2', 'member'] as const).map((name) => net.as(name))
    for (const person of fromMeetup) await person.call('example.groups.requestJoin', { body: { group: groupDid, message: 'Met you at the Meetup' } })
    await net.as('moderator').call('example.groups.requestJoin', { body: { group: groupDid, message: 'Saw the poster' } })
    await app.call('sync.now', {})

    // Oldest first, searched in the core by message, a page at a time.
    const firstPage = await app.call('groups.joinRequests', { accountDid: owner, groupDid, limit: 2 })
    expect(firstPage).toMatchObject({ total: 4, matched: 4, offset: 0 })
    expect(firstPage.items.map((r) => r.did)).toEqual(fromMeetup.slice(0, 2).map((p) => p.did))
    const searched = await app.call('groups.joinRequests', { accountDid: owner, groupDid, q: 'meetup', limit: 2 })
    expect(searched).toMatchObject({ total: 4, matched: 3 })

    // "Select all" means every matching request, not the page loaded.
    const open = await app.call('groups.openJoinRequests', { accountDid: owner, groupDid, q: 'meetup' })
    expect(open.dids.sort()).toEqual(fromMeetup.map((p) => p.did).sort())

    const { outboxIds } = await app.call('groups.actMany', {
      accountDid: owner,
      groupDid,
      actions: open.dids.map((did) => ({ kind: 'joinRequest.decide' as const, did, decision: 'admit' as const, roles: ['member'] })),
    })
    expect(outboxIds).toHaveLength(3)
    // Queued together: all shown as being sent at once (unless the host has confirmed them
    // already), none as still waiting, and no longer selectable.
    const meanwhile = await app.call('groups.joinRequests', { accountDid: owner, groupDid, q: 'meetup' })
    expect(meanwhile.items.filter((r) => !r.pending)).toEqual([])
    expect((await app.call('groups.openJoinRequests', { accountDid: owner, groupDid, q: 'meetup' })).dids).toEqual([])

    await eventually(async () => (await app.call('outbox.list', {})).length === 0)
    const members = await eventually(async () => {
      const page = await app.call('groups.members', { accountDid: owner, groupDid })
      return page.total === 4 && page.items
    })
    expect(members.map((m) => m.did).sort()).toEqual([owner, ...fromMeetup.map((p) => p.did)].sort())
    // The one who did not match the search is still waiting, untouched.
    const left = await app.call('groups.joinRequests', { accountDid: owner, groupDid })
    expect(left.items.map((r) => [r.did, r.pending])).toEqual([[net.as('moderator').did, false]])
  })

  it('refuses a batch with a bad action as a whole: nothing of it is queued', async () => {
    const groupDid = net.group('approval').did
    await app.call('groups.add', { accountDid: owner, ref: groupDid })
    const before = (await app.call('outbox.list', {})).length
    const env = await app.raw('groups.actMany', {
      accountDid: owner,
      groupDid,
      actions: [
        { kind: 'joinRequest.decide', did: net.as('outsider').did, decision: 'deny' },
        { kind: 'joinRequest.decide', did: 'not-a-did', decision: 'deny' },
      ],
    })
    expect(env).toMatchObject({ ok: false, error: { code: 'InvalidInput' } })
    expect((await app.call('outbox.list', {})).length).toBe(before)
  })
})
