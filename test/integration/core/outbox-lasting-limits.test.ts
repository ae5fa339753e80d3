import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'

const net = useLocalNetwork()
let app: CoreHarness
let me: string
const approval = () => net.group('approval').did
const open = () => net.group('open').did

useSignedInCore(net, { account: 'outsider' }, (signedIn) => ({ app, owner: me } = signedIn))

const summary = async (groupDid: string) => (await app.call('groups.list', {})).find((g) => g.did === groupDid && g.accountDid === me)!

describe('an action the host refuses for a long while (issue 22)', () => {
  it('is refused, in the host’s words and saying when to try again, and the actions after it still go out', async () => {
    // Ten requests to one group in a day is what the host allows one person: made
    // elsewhere (another device), each withdrawn.
    const elsewhere = net.as('outsider')
    for (let i = 0; i < 10; i++) {
      expect((await elsewhere.call('example.groups.requestJoin', { body: { group: approval() } })).body).toEqual({ status: 'pending', seq: expect.any(Number) })
      expect((await elsewhere.call('example.groups.cancelJoinRequest', { body: { group: approval() } })).status).toBe(200)
    }
    await app.call('groups.add', { accountDid: me, ref: approval() })
    await app.call('groups.add', { accountDid: me, ref: open() })

    // The eleventh, then something else.
    await app.call('groups.act', { accountDid: me, groupDid: approval(), action: { kind: 'membership.request', message: 'Once more' } })
    await app.call('groups.act', { accountDid: me, groupDid: open(), action: { kind: 'membership.request' } })

    const refused = await eventually(async () => (await app.call('outbox.list', {})).find((o) => o.groupDid === approval() && o.state === 'failed'))
    expect(refused.detail).toMatch(
      /^The group host refused this: You have asked to join this group 10 times in the last day, the most this host allows; you may ask again in \d+ hours\. You can try again after .*\d.*\.$/,
    )
    // The queue did not stop at it: the later request went out.
    await eventually(async () => (await summary(open())).roles.join() === 'member')
    expect((await app.call('outbox.list', {})).filter((o) => o.state === 'queued' || o.state === 'sending')).toEqual([])

    // It is not tried again (the host would refuse it all day), and the group no longer shows a request waiting.
    await app.call('sync.now', {})
    expect((await app.call('outbox.list', {})).find((o) => o.id === refused.id)).toMatchObject({ state: 'failed', attempts: 1 })
    await eventually(async () => (await summary(approval())).joinRequest === null)
    expect((await elsewhere.call('example.groups.getJoinRequest', { params: { group: approval() } })).body).toEqual({})
  })
})
