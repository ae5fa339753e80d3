import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { MemberPds } from '../../support/member-pds.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'
import { calendarSpace, EVENT_COLLECTION, LEGACY_RSVP_COLLECTION as RSVP_COLLECTION } from '../../../src/main/core/calendar/calendar-space.js'
import type { StackAccountName } from '../../../src/shared/stack-file.js'

const net = useLocalNetwork()
const pds = new MemberPds(() => net.stack)
let app: CoreHarness
let owner: string
const groupDid = () => net.group('open').did

useSignedInCore(net, { groups: ['open'] }, (signedIn) => ({ app, owner } = signedIn))

const settled = () => eventually(async () => (await app.call('outbox.list', {})).every((o) => o.state !== 'queued' && o.state !== 'sending'))
const events = () => app.call('groups.events', { accountDid: owner, groupDid: groupDid() })

/**
 * A member answering from their own PDS (another person's app, as far as this one knows),
 * in the collection Convene wrote before the published one: still read. The published
 * collection's own cases are in calendar-lexicons.test.ts.
 */
const answer = (name: StackAccountName, rkey: string, status: string) =>
  pds.put(name, {
    space: calendarSpace(groupDid()),
    collection: RSVP_COLLECTION,
    rkey,
    record: { $type: RSVP_COLLECTION, subject: `${calendarSpace(groupDid())}/${groupDid()}/${EVENT_COLLECTION}/${rkey}`, status, createdAt: new Date().toISOString() },
  })

describe('who is coming: every member’s RSVPs on the organizer’s calendar', () => {
  it('shows each member’s answer to an event, with their handle, as the host serves them', async () => {
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.create', event: { name: 'Picnic', startsAt: new Date(Date.now() + 86_400_000).toISOString() } } })
    await settled()
    const [event] = await eventually(async () => ((await events())[0]?.uri ? events() : null))
    expect(event!.rsvps).toEqual([])

    expect((await answer('member', event!.rkey, 'going')).status).toBe(200)
    expect((await answer('admin', event!.rkey, 'interested')).status).toBe(200)
    expect((await answer('moderator', event!.rkey, 'notgoing')).status).toBe(200)
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.rsvp', rkey: event!.rkey, status: 'going' } })
    await settled()
    await app.call('groups.refresh', { accountDid: owner, groupDid: groupDid() })

    const seen = (await events())[0]!
    const byDid = new Map(seen.rsvps.map((r) => [r.did, r.status]))
    expect(byDid).toEqual(
      new Map([
        [pds.did('member'), 'going'],
        [pds.did('admin'), 'interested'],
        [pds.did('moderator'), 'notgoing'],
        [owner, 'going'],
      ]),
    )
    expect(seen.myRsvp).toBe('going')
    // Handles come once verified both ways (after the sync that brought the members).
    const named = await eventually(async () => {
      await app.call('groups.refresh', { accountDid: owner, groupDid: groupDid() })
      const e = (await events())[0]!
      return e.rsvps.length > 0 && e.rsvps.every((r) => r.handle) ? e : null
    })
    expect(named.rsvps.find((r) => r.did === pds.did('member'))?.handle).toBe(net.stack.accounts.find((a) => a.name === 'member')!.handle)
  })

  it('tells the window of a place that opened for this account: its summary carries the events it goes to, with its standing (issue 36)', async () => {
    const myEvents = async () => (await app.call('groups.list', {})).find((g) => g.did === groupDid())!.myEvents
    const startsAt = new Date(Date.now() + 2 * 86_400_000).toISOString()
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.create', event: { name: 'Boat trip', startsAt }, capacity: 1 } })
    await settled()
    const boat = await eventually(async () => (await events()).find((e) => e.name === 'Boat trip' && e.uri))
    expect((await answer('member', boat.rkey, 'going')).status).toBe(200)
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.rsvp', rkey: boat.rkey, status: 'going' } })
    await settled()
    await app.call('groups.refresh', { accountDid: owner, groupDid: groupDid() })
    expect((await myEvents()).find((e) => e.rkey === boat.rkey)).toEqual({ rkey: boat.rkey, name: 'Boat trip', startsAt, status: null, myRsvp: 'going', standing: 'waitlisted', pending: false })

    // The member who had the place cannot come: the host gives it to this account, and the summary says so.
    expect((await answer('member', boat.rkey, 'notgoing')).status).toBe(200)
    await eventually(async () => {
      await app.call('groups.refresh', { accountDid: owner, groupDid: groupDid() })
      return (await myEvents()).find((e) => e.rkey === boat.rkey)?.standing === 'going'
    })
  })

  it('follows a changed answer, and drops someone who left the group', async () => {
    const [event] = await events()
    expect((await answer('member', event!.rkey, 'notgoing')).status).toBe(200)
    // A sync brings the change from the log (only the events are read again): the answer
    // moves, and its handle stays.
    await app.call('sync.now', {})
    const changed = (await events())[0]!.rsvps.find((r) => r.did === pds.did('member'))
    expect(changed).toMatchObject({ status: 'notgoing', handle: net.stack.accounts.find((a) => a.name === 'member')!.handle })
    expect((await net.as('admin').call('example.groups.leaveGroup', { body: { group: groupDid() } })).status).toBe(200)
    await app.call('groups.refresh', { accountDid: owner, groupDid: groupDid() })
    const seen = (await events())[0]!
    expect(seen.rsvps.find((r) => r.did === pds.did('member'))?.status).toBe('notgoing')
    expect(seen.rsvps.some((r) => r.did === pds.did('admin'))).toBe(false)
  })

  it('never shows a non-member’s answer', async () => {
    const [event] = await events()
    expect((await answer('outsider', event!.rkey, 'going')).status).toBe(200)
    await app.call('groups.refresh', { accountDid: owner, groupDid: groupDid() })
    expect((await events())[0]!.rsvps.some((r) => r.did === pds.did('outsider'))).toBe(false)
  })
})
