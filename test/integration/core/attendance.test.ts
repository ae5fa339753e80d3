import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'
import { calendarSpace, ensureCalendarSpace, EVENT_COLLECTION } from '../../../src/main/core/calendar/calendar-space.js'
import { ATTENDANCE_COLLECTION, attendanceRecord, attendanceRkey } from '../../../src/main/core/calendar/attendance-record.js'
import { actionHandlers } from '../../../src/main/core/queue/organizer-actions.js'
import { lookupUnavailable } from '../../../src/main/core/people/walk-in-lookup.js'

// This computer's name on its check-ins (read when a check-in is queued).
process.env.CONVENE_DEVICE_NAME = 'Door A'

const net = useLocalNetwork()
let app: CoreHarness
let owner: string
const groupDid = () => net.group('open').did

useSignedInCore(net, { groups: ['open'] }, (signedIn) => ({ app, owner } = signedIn))

const inGroup = () => ({ accountDid: owner, groupDid: groupDid() })
const settled = () => eventually(async () => (await app.call('outbox.list', {})).every((o) => o.state !== 'queued' && o.state !== 'sending'))
/** Every check-in the host holds for the group, read as a member would (listRecords). */
async function onHost(): Promise<{ uri: string; value: Record<string, unknown> }[]> {
  const res = await net.as('owner').call<{ records: { uri: string; value: Record<string, unknown> }[] }>('com.atproto.space.listRecords', {
    params: { space: calendarSpace(groupDid()), repo: groupDid(), collection: ATTENDANCE_COLLECTION, limit: 100 },
  })
  expect(res.status).toBe(200)
  return res.body.records
}

let rkey: string

describe('check-in at the door, offline', () => {
  it('a calendar made before attendance existed takes check-ins (its event writers get attendance added once)', async () => {
    // The calendar as an older Convene made it: events and images only.
    const made = await net.as('owner').call('example.groups.createSpace', {
      body: {
        group: groupDid(),
        type: 'community.lexicon.calendar',
        skey: 'self',
        name: 'Calendar',
        readableBy: ['owner', 'admin', 'moderator', 'member'],
        credentialScopes: [
          { role: 'owner', scopes: [EVENT_COLLECTION, 'example.groups.eventImage'] },
          { role: 'admin', scopes: [EVENT_COLLECTION, 'example.groups.eventImage'] },
        ],
      },
    })
    expect(made.status).toBe(200)
    await app.call('groups.act', { ...inGroup(), action: { kind: 'event.create', event: { name: 'Harbour meetup', startsAt: new Date(Date.now() - 3_600_000).toISOString() } } })
    await settled()
    await app.call('groups.refresh', inGroup())
    const [event] = await eventually(async () => ((await app.call('groups.events', inGroup()))[0]?.uri ? app.call('groups.events', inGroup()) : null))
    rkey = event!.rkey
    const door = await app.call('groups.door', { ...inGroup(), rkey })
    expect(door.device).toBe('Door A')
    expect(door.people.map((p) => p.did)).toContain(net.as('member').did)
    expect(door.checkIns).toEqual([])
  })

  it('is written while the host is down, shown at once, and sent once when it is back (exactly one record after two replays)', async () => {
    const member = net.as('member').did
    await net.running.restartHost({
      whileDown: async () => {
        await app.call('groups.act', { ...inGroup(), action: { kind: 'attendance.checkIn', rkey, did: member } })
        // Shown at once, from the cache, as waiting to be sent.
        const door = await app.call('groups.door', { ...inGroup(), rkey })
        expect(door.checkIns).toEqual([expect.objectContaining({ did: member, here: true, pending: true, device: 'Door A', walkIn: false })])
        await eventually(async () => (await app.call('outbox.list', {}))[0]?.attempts === 1)
        // The laptop is closed and opened again while the network is still gone.
        app = await app.restartCore()
        expect((await app.call('groups.door', { ...inGroup(), rkey })).checkIns).toEqual([expect.objectContaining({ did: member, pending: true })])
      },
    })
    await app.call('sync.now', {})
    await eventually(async () => (await app.call('outbox.list', {})).length === 0)
    // Sent again, exactly as the outbox sends it (a crash before the row was marked sent): the same record.
    const rt = await app.core.groups.runtime(owner)
    await actionHandlers(rt)['attendance.checkIn']!.send(groupDid(), { rkey, did: member, walkIn: false, checkedInAt: new Date().toISOString(), device: 'Door A' }, 'replay')
    app = await app.restartCore()
    await app.call('sync.now', {})
    const records = (await onHost()).filter((r) => r.value.subject === member)
    expect(records).toHaveLength(1)
    expect(records[0]!.uri.endsWith(`/${attendanceRkey(rkey, member)}`)).toBe(true)
    expect(records[0]!.value).toMatchObject({ checkedInBy: 'Door A', walkIn: false, event: `at://${groupDid()}/${EVENT_COLLECTION}/${rkey}` })
    await app.call('groups.refresh', inGroup())
    expect((await app.call('groups.door', { ...inGroup(), rkey })).checkIns).toEqual([expect.objectContaining({ did: member, pending: false, here: true })])
    // The member's row: they came to the one past event where attendance was taken.
    expect(await app.call('groups.attendanceHistory', { ...inGroup(), did: member })).toEqual({ came: 1, of: 1 })
    expect(await app.call('groups.attendanceHistory', { ...inGroup(), did: net.as('moderator').did })).toEqual({ came: 0, of: 1 })
  })

  it('a second door laptop checking the same person in settles as already checked in there, not as an error', async () => {
    const admin = net.as('admin').did
    // Door B (another laptop, the same organizer) checked the admin in at 18:04 and sent it.
    const rt = await app.core.groups.runtime(owner)
    const host = await rt.hostOf(groupDid())
    const space = await ensureCalendarSpace(host, groupDid())
    const earlier = '2026-11-25T18:04:00.000Z'
    await rt.credentials.write(host.host, groupDid(), space, 'com.atproto.space.putRecord', {
      space,
      repo: groupDid(),
      collection: ATTENDANCE_COLLECTION,
      rkey: attendanceRkey(rkey, admin),
      record: attendanceRecord(groupDid(), EVENT_COLLECTION, { event: rkey, did: admin, checkedInAt: earlier, device: 'Door B', walkIn: false }, earlier),
    })
    // This laptop had not heard of it yet, and checks them in too.
    await app.call('groups.act', { ...inGroup(), action: { kind: 'attendance.checkIn', rkey, did: admin } })
    await settled()
    // Settled, nothing left to fix: the outbox is empty, not holding a refusal.
    expect(await app.call('outbox.list', {})).toEqual([])
    const door = await app.call('groups.door', { ...inGroup(), rkey })
    expect(door.checkIns.find((c) => c.did === admin)).toMatchObject({ device: 'Door B', here: false, checkedInAt: earlier, pending: false })
    // Door B's record stands, once.
    const records = (await onHost()).filter((r) => r.value.subject === admin)
    expect(records).toHaveLength(1)
    expect(records[0]!.value.checkedInBy).toBe('Door B')
  })

  it('a check-in taken back after it was sent is deleted on the host', async () => {
    const member = net.as('member').did
    await app.call('groups.act', { ...inGroup(), action: { kind: 'attendance.undo', rkey, did: member } })
    expect((await app.call('groups.door', { ...inGroup(), rkey })).checkIns.some((c) => c.did === member)).toBe(false)
    await settled()
    expect((await onHost()).some((r) => r.value.subject === member)).toBe(false)
  })

  it('a walk-in by handle queued while nobody can look it up is shown at once, and recorded once under their DID when sent', async () => {
    const outsider = net.as('outsider')
    const handle = outsider.account.handle.toLowerCase()
    const rt = await app.core.groups.runtime(owner)
    const lookUp = rt.walkIns
    let asked = 0
    // The network gone: no directory answers (the host is down too).
    rt.walkIns = (h) => {
      asked++
      return Promise.reject(lookupUnavailable(h))
    }
    await net.running.restartHost({
      whileDown: async () => {
        await app.call('groups.act', { ...inGroup(), action: { kind: 'attendance.checkIn', rkey, handle: `@${handle}`, walkIn: true } })
        // Shown at once by the handle typed, as a walk-in waiting to be sent.
        expect((await app.call('groups.door', { ...inGroup(), rkey })).checkIns).toContainEqual(expect.objectContaining({ did: '', handle, here: true, pending: true, walkIn: true }))
        await eventually(async () => asked >= 1 && (await app.call('outbox.list', {}))[0]?.state === 'queued')
        expect((await app.call('outbox.list', {}))[0]).toMatchObject({ label: `Check in @${handle} (walk-in)`, state: 'queued' })
      },
    })
    rt.walkIns = lookUp
    await app.call('sync.now', {})
    await eventually(async () => (await app.call('outbox.list', {})).length === 0)
    const mine = () => onHost().then((records) => records.filter((r) => r.value.subject === outsider.did))
    expect(await mine()).toHaveLength(1)
    expect((await mine())[0]!.uri.endsWith(`/${attendanceRkey(rkey, outsider.did)}`)).toBe(true)
    expect((await mine())[0]!.value).toMatchObject({ checkedInBy: 'Door A', walkIn: true })
    // Sent again, as a replay after a crash would: still the one record.
    await actionHandlers(rt)['attendance.checkIn']!.send(groupDid(), { rkey, handle, walkIn: true, checkedInAt: new Date().toISOString(), device: 'Door A' }, 'replay')
    expect(await mine()).toHaveLength(1)
    await app.call('groups.refresh', inGroup())
    const door = await app.call('groups.door', { ...inGroup(), rkey })
    // Now named by their DID and the handle checked both ways; the handle's waiting row is gone.
    expect(door.checkIns.filter((c) => c.handle === handle)).toEqual([expect.objectContaining({ did: outsider.did, pending: false, here: true, walkIn: true })])
  })

  it('a walk-in by the handle of someone another door already checked in settles as theirs', async () => {
    const admin = net.as('admin')
    await app.call('groups.act', { ...inGroup(), action: { kind: 'attendance.checkIn', rkey, handle: admin.account.handle, walkIn: true } })
    await settled()
    expect(await app.call('outbox.list', {})).toEqual([])
    const door = await app.call('groups.door', { ...inGroup(), rkey })
    expect(door.checkIns.filter((c) => c.did === admin.did || c.handle === admin.account.handle.toLowerCase())).toEqual([expect.objectContaining({ did: admin.did, device: 'Door B', here: false })])
    expect((await onHost()).filter((r) => r.value.subject === admin.did)).toHaveLength(1)
  })

  it('a walk-in by a handle no one has ends refused in plain words, and nothing is recorded', async () => {
    const before = (await onHost()).length
    await app.call('groups.act', { ...inGroup(), action: { kind: 'attendance.checkIn', rkey, handle: 'nobody-here.test', walkIn: true } })
    const row = await eventually(async () => (await app.call('outbox.list', {})).find((o) => o.state === 'failed' || o.state === 'conflict'))
    expect(row.detail).toBe('No one has the handle @nobody-here.test: the walk-in was not recorded.')
    expect((await app.call('groups.door', { ...inGroup(), rkey })).checkIns.some((c) => c.handle === 'nobody-here.test')).toBe(false)
    expect(await onHost()).toHaveLength(before)
  })

  it('a check-in sent while a read of the group is under way stays on the door list (the read began before the host had it)', async () => {
    const moderator = net.as('moderator').did
    const rt = await app.core.groups.runtime(owner)
    const host = await rt.hostOf(groupDid())
    const query = host.query.bind(host)
    let armed = true
    // The read of the check-ins gets the host's answer, and before it is written the door checks the moderator in, sent and answered.
    host.query = (async (method: string, params: Record<string, unknown>) => {
      const answer = await query(method as never, params as never)
      if (armed && method === 'com.atproto.space.listRecords' && params.collection === ATTENDANCE_COLLECTION) {
        armed = false
        await app.call('groups.act', { ...inGroup(), action: { kind: 'attendance.checkIn', rkey, did: moderator } })
        await settled()
      }
      return answer
    }) as typeof host.query
    try {
      await app.call('groups.refresh', inGroup())
    } finally {
      host.query = query
    }
    expect(armed).toBe(false)
    await eventually(async () => (await app.call('groups.door', { ...inGroup(), rkey })).checkIns.some((c) => c.did === moderator && !c.pending))
    await app.core.groups.syncing.idle()
    expect((await app.call('groups.door', { ...inGroup(), rkey })).checkIns.filter((c) => c.did === moderator)).toEqual([expect.objectContaining({ here: true, pending: false })])
    expect((await onHost()).filter((r) => r.value.subject === moderator)).toHaveLength(1)
  })
})
