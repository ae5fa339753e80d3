import { afterAll, describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { recordRequests } from '../../support/request-log.js'
import { CoreHarness, eventually } from '../../support/core-harness.js'
import { closeSharedBrowser } from '../../support/browser-sign-in.js'
import type { Notice } from '../../../src/shared/ipc/contract.js'

/**
 * Today against the real local network: two accounts of one person reaching the same
 * three groups, a join request and a report made by others, synced in; Today shows each
 * once, reads no host to show them, and its count drops (told in a notice) as soon as a
 * decision is queued.
 */
const net = useLocalNetwork()
let app: CoreHarness | undefined
afterAll(async () => {
  await app?.stop()
  await closeSharedBrowser()
})
const seen = recordRequests()

describe('Today over the real network', () => {
  it('shows what waits in every group once, from the caches alone, and counts a decision at once', async () => {
    app = await CoreHarness.start(net.stack)
    const owner = await app.signIn('owner')
    const admin = await app.signIn('admin')
    const approval = net.group('approval').did
    const open = net.group('open').did
    const asking = net.as('outsider').did
    expect((await net.as('outsider').call('example.groups.requestJoin', { body: { group: approval, message: 'Hello' } })).status).toBe(200)
    const reported = net.as('outsider2').did
    const filed = await net.as('member').call('example.groups.createReport', {
      body: { group: open, subject: { $type: 'example.groups.defs#subjectAccount', did: reported }, reasonType: 'com.atproto.moderation.defs#reasonSpam', reason: 'Ads' },
    })
    expect(filed.status).toBe(200)
    for (const accountDid of [owner, admin]) for (const g of net.stack.groups) await app.call('groups.add', { accountDid, ref: g.did })

    const notices: Notice[] = []
    const unsubscribe = app.core.notices.subscribe((n) => notices.push(n))
    const hostOrigin = new URL(net.stack.host.url).origin
    const from = seen.length
    const page = await app.call('today.items', {})
    expect(seen.slice(from).filter((r) => r.origin === hostOrigin), 'Today asks no host').toEqual([])
    // Both accounts reach both groups; each item shows once, as the owner (the most rights).
    expect(page.items.map((i) => [i.kind, i.groupDid, i.key, i.accountDid])).toEqual([
      ['joinRequest', approval, asking, owner],
      ['report', open, reported, owner],
    ])
    expect(page.waiting).toBe(2)
    expect(page.items[0]).toMatchObject({ detail: 'Hello', actions: ['admit', 'deny'] })
    expect(page.groups.map((g) => [g.name, g.waiting])).toEqual([
      ['Approval group', 1],
      ['Open group', 1],
    ])

    // A decision held for Undo: still shown (sending), no longer counted, and the count goes out in a notice.
    await app.call('groups.act', { accountDid: owner, groupDid: approval, action: { kind: 'joinRequest.decide', did: asking, decision: 'admit' }, hold: 60_000 })
    const after = await app.call('today.items', {})
    expect(after.waiting).toBe(1)
    expect(after.items.find((i) => i.key === asking)?.pending).toBe(true)
    await eventually(async () => notices.some((n) => n.name === 'today.changed' && n.payload.waiting === 1))
    unsubscribe()
  })
})
