import { describe, expect, it } from 'vitest'
import { TID } from '@atproto/common-web'
import { useLocalNetwork } from '../../support/local-network.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'
import { ACTIONS, actionHandlers, type ActionKind, type ActionPayloads } from '../../../src/main/core/queue/organizer-actions.js'

const net = useLocalNetwork()
let app: CoreHarness
let owner: string
const groupDid = () => net.group('approval').did

useSignedInCore(net, { groups: ['approval'] }, (signedIn) => ({ app, owner } = signedIn))

/**
 * The crash the outbox must survive: the action is queued, the host takes the write,
 * and the app dies before it marks the row sent (the row is left 'sending', one
 * attempt made). A new process over the same data replays it.
 */
async function crashAfterTheHostTookIt<K extends ActionKind>(kind: K, payload: ActionPayloads[K], opts: { sent?: ActionPayloads[K] } = {}) {
  const rt = await app.core.groups.runtime(owner)
  const spec = ACTIONS[kind]
  const id = await rt.outbox.enqueue({ groupDid: groupDid(), kind, payload, label: spec.label(payload as never, (did) => did) }, (tx, outboxId) =>
    spec.applyToCache(tx, groupDid(), payload as never, outboxId),
  )
  const row = (await rt.outbox.list()).find((r) => r.id === id)!
  // Sent exactly as the outbox sends it (or only its first part, `sent`): the host takes it…
  await actionHandlers(rt)[kind]!.send(groupDid(), opts.sent ?? payload, row.idempotencyKey)
  // …and the app dies before it can say so.
  await rt.cache.updateTable('outbox').set({ state: 'sending', attempts: 1 }).where('id', '=', id).execute()
  app = await app.restartCore()
  expect(await app.call('outbox.list', {})).toEqual([expect.objectContaining({ kind, state: 'queued', attempts: 1 })])
  await app.call('sync.now', {})
  await eventually(async () => (await app.call('outbox.list', {})).length === 0)
  // What the host holds, read whole.
  await app.call('groups.refresh', { accountDid: owner, groupDid: groupDid() })
}

describe('a replay after a crash mid-send never doubles anything', () => {
  it('an invite', async () => {
    const invitee = net.as('outsider2').did
    await crashAfterTheHostTookIt('invite.create', { invitee, message: 'come along' })
    const invites = await app.call('groups.invites', { accountDid: owner, groupDid: groupDid(), q: invitee })
    expect(invites.items.filter((i) => i.invitee === invitee)).toHaveLength(1)
  })

  it('an event', async () => {
    const name = `Replayed meetup ${Date.now()}`
    await crashAfterTheHostTookIt('event.create', { rkey: TID.nextStr(), event: { name, startsAt: new Date(Date.now() + 86_400_000).toISOString() } })
    const events = await app.call('groups.events', { accountDid: owner, groupDid: groupDid() })
    expect(events.filter((e) => e.name === name)).toHaveLength(1)
  })

  it('an event made with a capacity and a picture, cut off after the event and before the rest: one event, with both', async () => {
    const name = `Capped replay ${Date.now()}`
    const event = { name, startsAt: new Date(Date.now() + 86_400_000).toISOString() }
    const rkey = TID.nextStr()
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
    const image = { data: png.toString('base64'), mimeType: 'image/png' as const, alt: 'A room' }
    await crashAfterTheHostTookIt('event.create', { rkey, event, capacity: 2, image }, { sent: { rkey, event } })
    const events = (await app.call('groups.events', { accountDid: owner, groupDid: groupDid() })).filter((e) => e.name === name)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ capacity: 2, image: { alt: 'A room' } })
    const standing = await net.as('owner').call<{ capacity?: number }>('example.groups.getEventStanding', { params: { space: `at://${groupDid()}/space/community.lexicon.calendar/self`, event: rkey } })
    expect(standing.body.capacity).toBe(2)
  })

  it('a report (the host takes its idempotency key once), while a new report is still kept', async () => {
    const reported = net.as('member').did
    const reports = async () => (await app.call('groups.subject', { accountDid: owner, groupDid: groupDid(), key: reported })).reports
    await crashAfterTheHostTookIt('report.create', { subject: { did: reported }, reasonType: 'spam', reason: 'posts ads' })
    const queue = await app.call('groups.subjects', { accountDid: owner, groupDid: groupDid() })
    expect(queue.items.find((s) => s.key === reported)).toMatchObject({ status: 'open', reportCount: 1 })
    // The count is of people (one reporter counts once), so the history shows the doubling a count cannot.
    expect(await reports()).toHaveLength(1)

    // A second, separate report is a new one: the key dedupes retries, not reports.
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'report.create', subject: { did: reported }, reasonType: 'spam' } })
    await eventually(async () => (await app.call('outbox.list', {})).length === 0)
    expect(await reports()).toHaveLength(2)
  })
})
