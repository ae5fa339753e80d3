import { describe, expect, it } from 'vitest'
import { TID } from '@atproto/common-web'
import { useLocalNetwork } from '../../support/local-network.js'
import { MemberPds } from '../../support/member-pds.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'
import { calendarSpace, ensureCalendarSpace, EVENT_COLLECTION, LEGACY_RSVP_COLLECTION, RSVP_COLLECTION } from '../../../src/main/core/calendar/calendar-space.js'
import { placeInWords } from '../../../src/shared/event-places.js'
import { XrpcCallError } from '../../../src/main/core/xrpc/xrpc-error.js'
import { fieldsOfEvent } from '../../../src/renderer/src/composables/calendar-format.js'

/**
 * Issue 27 point 1: the published calendar lexicons, as another calendar app (Smoke
 * Signal, Atmo) writes them, straight to the group's host and a member's PDS, are what
 * Convene shows; and Convene's own edits and RSVPs keep to them.
 */
const net = useLocalNetwork()
const pds = new MemberPds(() => net.stack)
let app: CoreHarness
let owner: string
const groupDid = () => net.group('open').did

useSignedInCore(net, { groups: ['open'] }, (signedIn) => ({ app, owner } = signedIn))

const E = EVENT_COLLECTION
const settled = async () =>
  eventually(async () => (await app.call('outbox.list', {})).every((o) => o.state !== 'queued' && o.state !== 'sending')).catch(async (e: unknown) => {
    throw new Error(`${(e as Error).message}: ${JSON.stringify(await app.call('outbox.list', {}))}`)
  })
const events = () => app.call('groups.events', { accountDid: owner, groupDid: groupDid() })
const refresh = () => app.call('groups.refresh', { accountDid: owner, groupDid: groupDid() })

const rkey = TID.nextStr()
/** What another app wrote: every field the lexicon has, and some it does not (kept by Convene's edits). */
const theirs = {
  $type: E,
  name: 'Community meetup',
  description: 'Talks and pizza',
  startsAt: '2030-05-01T18:00:00.000Z',
  endsAt: '2030-05-01T21:00:00.000Z',
  createdAt: '2030-01-01T00:00:00.000Z',
  mode: `${E}#hybrid`,
  status: `${E}#scheduled`,
  rsvpExpected: true,
  locations: [
    { $type: 'community.lexicon.location.address', country: 'DE', locality: 'Berlin', street: 'Hauptstr. 1', name: 'Town hall', 'org.example.floor': 2 },
    { $type: `${E}#uri`, uri: 'https://stream.example/meetup', name: 'Stream' },
    { $type: 'community.lexicon.location.geo', latitude: '52.5200', longitude: '13.4050' },
  ],
  uris: [{ uri: 'https://tickets.example/meetup', name: 'Tickets', 'org.example.price': 'free' }],
  'org.example.organizerNote': 'Doors at 17:30',
}

async function asAnotherApp(record: Record<string, unknown>) {
  const rt = await app.core.groups.runtime(owner)
  const host = await rt.hostOf(groupDid())
  await ensureCalendarSpace(host, groupDid())
  await rt.credentials.write(host.host, groupDid(), calendarSpace(groupDid()), 'com.atproto.space.putRecord', { space: calendarSpace(groupDid()), repo: groupDid(), collection: E, rkey, record })
  return host.query('com.atproto.space.getRecord', { space: calendarSpace(groupDid()), repo: groupDid(), collection: E, rkey })
}

/** A member's RSVP as another calendar app writes it: on their own PDS, a strongRef to the event, the lexicon's full token. */
const rsvp = (name: 'member' | 'moderator', cid: string, status: string, key = rkey) =>
  pds.put(name, {
    space: calendarSpace(groupDid()),
    collection: RSVP_COLLECTION,
    rkey: key,
    record: { $type: RSVP_COLLECTION, subject: { uri: `at://${groupDid()}/${E}/${rkey}`, cid }, status: `${RSVP_COLLECTION}#${status}` },
  })

describe('events and RSVPs written by another calendar app', () => {
  it('shows the event’s name, time, mode, every place, links, its cancellation, and a member’s “going”', async () => {
    await asAnotherApp(theirs)
    // The app then cancels it, as another app does: the status, nothing else.
    const { cid } = await asAnotherApp({ ...theirs, status: `${E}#cancelled` })
    expect((await rsvp('member', cid!, 'going')).status).toBe(200)
    // An old answer in the collection Convene wrote before is read too, and loses to the published one.
    const old = await pds.put('member', {
      space: calendarSpace(groupDid()),
      collection: LEGACY_RSVP_COLLECTION,
      rkey,
      record: { $type: LEGACY_RSVP_COLLECTION, subject: `${calendarSpace(groupDid())}/${groupDid()}/${E}/${rkey}`, status: 'notgoing' },
    })
    expect(old.status).toBe(200)
    // A moderator answered only in the old collection (before Convene changed): still counted.
    const oldOnly = await pds.put('moderator', {
      space: calendarSpace(groupDid()),
      collection: LEGACY_RSVP_COLLECTION,
      rkey,
      record: { $type: LEGACY_RSVP_COLLECTION, subject: `${calendarSpace(groupDid())}/${groupDid()}/${E}/${rkey}`, status: 'interested' },
    })
    expect(oldOnly.status).toBe(200)

    await refresh()
    const event = await eventually(async () => (await events()).find((e) => e.rkey === rkey))
    expect(event).toMatchObject({ name: 'Community meetup', startsAt: theirs.startsAt, endsAt: theirs.endsAt, mode: 'hybrid', status: 'cancelled' })
    expect(event.locations.map(placeInWords)).toEqual(['Town hall, Hauptstr. 1, Berlin, DE', 'Stream: https://stream.example/meetup', 'at 52.5200, 13.4050'])
    expect(event.uris).toEqual([{ uri: 'https://tickets.example/meetup', name: 'Tickets' }])
    const going = event.rsvps.filter((r) => r.status === 'going')
    expect(going.map((r) => r.did)).toEqual([pds.did('member')])
    expect(event.rsvps.find((r) => r.did === pds.did('moderator'))?.status).toBe('interested')
  })

  it('an RSVP another app keyed on its own (a fresh TID) still counts for the event its subject names', async () => {
    const rt = await app.core.groups.runtime(owner)
    const host = await rt.hostOf(groupDid())
    const { cid } = await host.query('com.atproto.space.getRecord', { space: calendarSpace(groupDid()), repo: groupDid(), collection: E, rkey })
    await pds.delete('moderator', { space: calendarSpace(groupDid()), collection: LEGACY_RSVP_COLLECTION, rkey })
    expect((await rsvp('moderator', cid!, 'going', TID.nextStr())).status).toBe(200)
    await refresh()
    const event = (await events()).find((e) => e.rkey === rkey)!
    expect(event.rsvps.filter((r) => r.status === 'going').map((r) => r.did).sort()).toEqual([pds.did('member'), pds.did('moderator')].sort())
  })

  it('editing it in Convene keeps every field Convene does not show, and every place it does not edit', async () => {
    const shown = (await events()).find((e) => e.rkey === rkey)!
    // What the form sends back when only the name is changed (and the event put back on).
    const fields = { ...fieldsOfEvent(shown), name: 'Community meetup (new room)', status: 'scheduled' as const }
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.update', rkey, event: fields } })
    await settled()
    const rt = await app.core.groups.runtime(owner)
    const host = await rt.hostOf(groupDid())
    const { value } = await host.query('com.atproto.space.getRecord', { space: calendarSpace(groupDid()), repo: groupDid(), collection: E, rkey })
    expect(value).toEqual({ ...theirs, name: 'Community meetup (new room)', status: `${E}#scheduled` })
  })

  it('Convene’s own RSVP is a community.lexicon.calendar.rsvp: a strongRef to the event by the address the host gave, the full token, the event’s rkey', async () => {
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.rsvp', rkey, status: 'going' } })
    await settled()
    const rt = await app.core.groups.runtime(owner)
    const host = await rt.hostOf(groupDid())
    const { cid } = await host.query('com.atproto.space.getRecord', { space: calendarSpace(groupDid()), repo: groupDid(), collection: E, rkey })
    const mine = await eventually(async () => {
      const res = await host.query('example.groups.listMemberRecords', { space: calendarSpace(groupDid()), collection: RSVP_COLLECTION, limit: 100 })
      return res.records.find((r) => r.repo === owner)
    })
    expect(mine.uri.endsWith(`/${RSVP_COLLECTION}/${rkey}`)).toBe(true)
    // The event by the address the host gave it (what another app resolves with getRecord), which the host takes.
    expect(mine.value).toMatchObject({ $type: RSVP_COLLECTION, subject: { uri: `${calendarSpace(groupDid())}/${groupDid()}/${E}/${rkey}`, cid }, status: `${RSVP_COLLECTION}#going` })
    await refresh()
    expect((await events()).find((e) => e.rkey === rkey)).toMatchObject({ myRsvp: 'going' })
  })

  it('answering while the group host cannot be reached names the event by the CID the last sync read', async () => {
    const rt = await app.core.groups.runtime(owner)
    const host = await rt.hostOf(groupDid())
    const { cid } = await host.query('com.atproto.space.getRecord', { space: calendarSpace(groupDid()), repo: groupDid(), collection: E, rkey })
    await refresh()
    // The host is gone for this account's runtime (as when offline); its own PDS is not.
    const hostOf = rt.hostOf.bind(rt)
    rt.hostOf = () => Promise.reject(new XrpcCallError('com.atproto.space.getRecord', 0, 'ServerUnreachable', 'gone'))
    try {
      await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.rsvp', rkey, status: 'notgoing' } })
      await settled()
    } finally {
      rt.hostOf = hostOf
    }
    const mine = await eventually(async () => {
      const res = await host.query('example.groups.listMemberRecords', { space: calendarSpace(groupDid()), collection: RSVP_COLLECTION, limit: 100 })
      const r = res.records.find((x) => x.repo === owner)
      return (r?.value as { status?: string } | undefined)?.status === `${RSVP_COLLECTION}#notgoing` ? r : null
    })
    expect(mine.value).toMatchObject({ subject: { uri: `${calendarSpace(groupDid())}/${groupDid()}/${E}/${rkey}`, cid } })
    expect((await app.call('outbox.list', {})).filter((o) => o.state === 'conflict')).toEqual([])
  })
})
