import { describe, expect, it } from 'vitest'
import { TID } from '@atproto/common-web'
import { useLocalNetwork } from '../../support/local-network.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'
import { GroupCredentials } from '../../../src/main/core/credentials/group-credentials.js'
import { calendarSpace, ensureCalendarSpace } from '../../../src/main/core/calendar/calendar-space.js'
import { rpcScope } from '../../../src/shared/scopes.js'
import { createHostCallFetch } from '@node/safe-fetch.js'
import { followingUpdates, seriesCreates } from '../../../src/renderer/src/composables/event-series.js'
import { fieldsOfEvent } from '../../../src/renderer/src/composables/calendar-format.js'
import { isoWithOffset } from '../../../src/shared/calendar-dates.js'
import { toIcs } from '../../../src/shared/ics.js'

const net = useLocalNetwork()
let app: CoreHarness
let owner: string
const groupDid = () => net.group('open').did

useSignedInCore(net, { groups: ['open'] }, (signedIn) => ({ app, owner } = signedIn))

const settled = async () =>
  eventually(async () => (await app.call('outbox.list', {})).every((o) => o.state !== 'queued' && o.state !== 'sending')).catch(async (e: unknown) => {
    throw new Error(`${(e as Error).message}: ${JSON.stringify(await app.call('outbox.list', {}))}`)
  })
const events = () => app.call('groups.events', { accountDid: owner, groupDid: groupDid() })

describe('the group calendar, written as the group with a DPoP-bound credential', () => {
  it('creates the calendar space on first use, then the event, as the group', async () => {
    const startsAt = new Date(Date.now() + 86_400_000).toISOString()
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.create', event: { name: 'Picnic', startsAt, location: 'The park' } } })
    await settled()
    const [event] = await eventually(async () => {
      const list = await events()
      return list.length === 1 && !list[0]!.pending && !!list[0]!.uri ? list : null
    })
    expect(event).toMatchObject({ name: 'Picnic', startsAt, location: 'The park', myRsvp: null })
    expect(event!.uri.startsWith(`${calendarSpace(groupDid())}/${groupDid()}/community.lexicon.calendar.event/`)).toBe(true)
    expect((await app.call('outbox.list', {})).filter((o) => o.state !== 'done')).toEqual([])
    // The host demands a DPoP nonce: the first request met the challenge and retried once.
    expect((await app.core.groups.runtime(owner)).credentials.nonceRetries).toBe(1)
    // The calendar space the first event made is in the group's spaces, read from the change
    // log at the next sync (no live connection here): it was settled away with the event (issue 26).
    await app.call('sync.now', {})
    await eventually(async () => (await app.call('groups.spaces', { accountDid: owner, groupDid: groupDid() })).some((sp) => sp.type === 'community.lexicon.calendar' && sp.name === 'Calendar'))
  })

  it('repeats within the token’s life with no new grant, no PDS round trip and no nonce retry', async () => {
    const rt = await app.core.groups.runtime(owner)
    const retriesBefore = rt.credentials.nonceRetries
    const grantBefore = await rt.credentials.grant((await rt.hostOf(groupDid())).host, groupDid(), calendarSpace(groupDid()))
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.create', event: { name: 'Second', startsAt: new Date(Date.now() + 2 * 86_400_000).toISOString() } } })
    await settled()
    expect(await events()).toHaveLength(2)
    const grantAfter = await rt.credentials.grant((await rt.hostOf(groupDid())).host, groupDid(), calendarSpace(groupDid()))
    expect(grantAfter.grant.accessJwt).toBe(grantBefore.grant.accessJwt)
    expect(rt.credentials.nonceRetries).toBe(retriesBefore)
  })

  it('renews the grant with a fresh key before its 15 minutes end', async () => {
    const rt = await app.core.groups.runtime(owner)
    let now = Date.now()
    const credentials = new GroupCredentials(rt.auth, createHostCallFetch({ allowLoopbackPeers: true }), () => now)
    const host = (await rt.hostOf(groupDid())).host
    const first = await credentials.grant(host, groupDid(), calendarSpace(groupDid()))
    expect(Date.parse(first.grant.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000)
    // A calendar the app makes lets owners and admins check people in at the door too (issue 27).
    expect(first.grant.collections).toEqual(['community.lexicon.calendar.event', 'example.groups.attendance', 'example.groups.eventImage'])
    now += 14.5 * 60_000
    const renewed = await credentials.grant(host, groupDid(), calendarSpace(groupDid()))
    expect(renewed.grant.accessJwt).not.toBe(first.grant.accessJwt)
    expect(renewed.key.jkt).not.toBe(first.key.jkt)
    // The key is WebCrypto's and cannot be exported, by us or anyone in this process.
    await expect(crypto.subtle.exportKey('jwk', renewed.key.privateKey)).rejects.toThrow()
  })

  it('edits an event, RSVPs as yourself (a second answer overwrites), and deletes the event', async () => {
    const [event] = await events()
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.update', rkey: event!.rkey, event: { name: 'Picnic (moved)', startsAt: event!.startsAt } } })
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.rsvp', rkey: event!.rkey, status: 'going' } })
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.rsvp', rkey: event!.rkey, status: 'interested' } })
    await settled()
    await app.call('groups.refresh', { accountDid: owner, groupDid: groupDid() })
    const updated = (await events()).find((e) => e.rkey === event!.rkey)!
    expect(updated).toMatchObject({ name: 'Picnic (moved)', myRsvp: 'interested' })
    // One RSVP record on the owner's own PDS, keyed by the event's rkey.
    const pw = await net.as('owner').serviceAuth('example.groups.getGroup') // warms the password session
    expect(pw).toBeTruthy()
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.delete', rkey: event!.rkey } })
    await settled()
    await eventually(async () => !(await events()).some((e) => e.rkey === event!.rkey))
  })

  it('an edit keeps what other calendar apps wrote into the event, and when it was created', async () => {
    const rt = await app.core.groups.runtime(owner)
    const host = await rt.hostOf(groupDid())
    const rkey = TID.nextStr()
    const theirs = {
      $type: 'community.lexicon.calendar.event',
      name: 'Harbour swim',
      startsAt: '2030-06-01T08:00:00.000Z',
      description: 'Bring a towel',
      mode: 'community.lexicon.calendar.event#inperson',
      uris: [{ uri: 'https://swim.example/harbour', name: 'Sign-up sheet' }],
      rsvpExpected: true,
      locations: [{ $type: 'community.lexicon.location.hthree', value: '8a1fb46622dffff', name: 'Harbour' }],
      createdAt: '2030-01-01T00:00:00.000Z',
    }
    // Written as another app would: straight into the group's calendar space.
    await ensureCalendarSpace(host, groupDid())
    await rt.credentials.write(host.host, groupDid(), calendarSpace(groupDid()), 'com.atproto.space.putRecord', { space: calendarSpace(groupDid()), repo: groupDid(), collection: 'community.lexicon.calendar.event', rkey, record: theirs })
    // The form shows mode and links (prefilled, sent back as they were); the description was cleared in it.
    const event = { name: 'Harbour swim (7am)', startsAt: '2030-06-01T07:00:00.000Z', mode: 'inperson' as const, uris: [{ uri: 'https://swim.example/harbour', name: 'Sign-up sheet' }] }
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.update', rkey, event } })
    await settled()
    const { value } = await host.query('com.atproto.space.getRecord', { space: calendarSpace(groupDid()), repo: groupDid(), collection: 'community.lexicon.calendar.event', rkey })
    // The form's fields are as edited (the description was cleared in the form), the rest as the other app left it.
    expect(value).toEqual({ ...theirs, name: 'Harbour swim (7am)', startsAt: '2030-06-01T07:00:00.000Z', description: undefined })
  })

  it('refuses a member without a calendar credential, in plain words', async () => {
    const member = await app.signIn('member')
    await app.call('groups.add', { accountDid: member, ref: groupDid() })
    await app.call('groups.act', { accountDid: member, groupDid: groupDid(), action: { kind: 'event.create', event: { name: 'Nope', startsAt: new Date().toISOString() } } })
    const refused = await eventually(async () => (await app.call('outbox.list', {})).find((o) => o.label.includes('Nope') && o.state === 'conflict'))
    expect(refused.detail).toBe('Your role cannot add events to this group’s calendar.')
  })

  it('a member accepts membership on their own PDS, the host counts it, and leaving deletes it first', async () => {
    const member = (await app.call('accounts.list', {})).find((a) => a.handle === net.stack.accounts.find((x) => x.name === 'member')!.handle)!.did
    await app.call('groups.act', { accountDid: member, groupDid: groupDid(), action: { kind: 'membership.accept' } })
    await settled()
    const accepted = await app.call('groups.refresh', { accountDid: owner, groupDid: groupDid() }).then(() => app.call('groups.members', { accountDid: owner, groupDid: groupDid() }).then((p) => p.items))
    expect(accepted.find((m) => m.did === member)?.accepted).toBe(true)
    await app.call('groups.act', { accountDid: member, groupDid: groupDid(), action: { kind: 'membership.leave' } })
    await settled()
    // The person's own window says so without a refresh: no role left in the group.
    await eventually(async () => (await app.call('groups.list', {})).find((g) => g.did === groupDid() && g.accountDid === member)?.roles.length === 0)
    await app.call('groups.refresh', { accountDid: owner, groupDid: groupDid() })
    expect((await app.call('groups.members', { accountDid: owner, groupDid: groupDid() }).then((p) => p.items)).some((m) => m.did === member)).toBe(false)
    const changes = await net.as('owner').call<{ changes: { kind: string; subject?: string }[] }>('example.groups.listChanges', { params: { group: groupDid(), limit: 100 } })
    const kinds = changes.body.changes.filter((c) => c.subject === member).map((c) => c.kind)
    expect(kinds.indexOf('member.acceptanceWithdrawn')).toBeLessThan(kinds.indexOf('member.left'))
  })

  it('names the scope to ask for when the sign-in lacks one', async () => {
    const rt = await app.core.groups.runtime(owner)
    const err = await rt.auth.get(net.stack.host.aud, 'example.groups.notifyWrite').catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'ScopeMissingError', data: { scope: rpcScope('example.groups.notifyWrite', net.stack.host.aud) } })
  })
})

describe('a weekly series (issue 36)', () => {
  const E = 'community.lexicon.calendar.event'
  const onHost = async (rkey: string) => {
    const rt = await app.core.groups.runtime(owner)
    const host = await rt.hostOf(groupDid())
    return (await host.query('com.atproto.space.getRecord', { space: calendarSpace(groupDid()), repo: groupDid(), collection: E, rkey })).value as Record<string, unknown>
  }
  const inSeries = async (id: string) => (await events()).filter((e) => e.series?.id === id).sort((a, b) => Date.parse(a.series!.recurrenceId) - Date.parse(b.series!.recurrenceId))

  it('is made while the host is down, shown at once, sent once it is back as plain events naming their series; one moved, then the rest renamed', async () => {
    const first = new Date(Date.now() + 3 * 86_400_000)
    first.setHours(19, 0, 0, 0)
    const actions = seriesCreates({ name: 'Board games', startsAt: isoWithOffset(first), endsAt: isoWithOffset(new Date(first.getTime() + 2 * 3600_000)) }, { capacity: 12 }, { choice: 'weekly', count: 4 })
    const id = (actions[0] as { event: { series: { id: string } } }).event.series.id
    await net.running.restartHost({
      whileDown: async () => {
        await app.call('groups.actMany', { accountDid: owner, groupDid: groupDid(), actions })
        const shown = await inSeries(id)
        expect(shown.map((e) => [e.pending, e.capacity, e.series?.rrule])).toEqual(Array(4).fill([true, 12, 'FREQ=WEEKLY;COUNT=4']))
      },
    })
    const back = Date.now()
    await app.call('sync.now', {})
    await settled()
    // Sent once the host is back, without waiting out a time limit (a host that bound its port before it could answer once left such a request hanging).
    expect(Date.now() - back).toBeLessThan(10_000)
    const stored = await eventually(async () => {
      const list = await inSeries(id)
      return list.length === 4 && list.every((e) => e.uri && !e.pending) ? list : null
    })
    // A week apart at the same wall-clock time, each a whole event of its own with its own places.
    expect(stored.map((e) => new Date(e.startsAt).getHours())).toEqual([19, 19, 19, 19])
    expect(stored.map((e) => e.capacity)).toEqual([12, 12, 12, 12])
    const record = await onHost(stored[1]!.rkey)
    expect(record).toMatchObject({ $type: E, name: 'Board games', series: { $type: 'example.groups.defs#eventSeries', id, rrule: 'FREQ=WEEKLY;COUNT=4', recurrenceId: stored[1]!.series!.recurrenceId, dtstart: stored[0]!.series!.recurrenceId } })

    // One date moved a day later ("this event only"): it keeps its place in the series.
    const third = stored[2]!
    const moved = isoWithOffset(new Date(Date.parse(third.startsAt) + 86_400_000))
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.update', rkey: third.rkey, event: { ...fieldsOfEvent(third), startsAt: moved, endsAt: isoWithOffset(new Date(Date.parse(moved) + 2 * 3600_000)) } } })
    await settled()
    expect(await onHost(third.rkey)).toMatchObject({ startsAt: moved, series: { recurrenceId: third.series!.recurrenceId } })

    // "This and following" from the second: renamed from there on, the first untouched, the moved one keeping its day.
    await app.call('groups.refresh', { accountDid: owner, groupDid: groupDid() })
    const now = await inSeries(id)
    await app.call('groups.actMany', { accountDid: owner, groupDid: groupDid(), actions: followingUpdates(now, now[1]!, { ...fieldsOfEvent(now[1]!), name: 'Board games night' }) })
    await settled()
    expect(await Promise.all(stored.map(async (e) => (await onHost(e.rkey)).name))).toEqual(['Board games', 'Board games night', 'Board games night', 'Board games night'])
    expect((await onHost(third.rkey)).startsAt).toBe(moved)

    // The .ics carries the rule once, the moved date as its exception.
    await app.call('groups.refresh', { accountDid: owner, groupDid: groupDid() })
    const ics = toIcs((await inSeries(id)).map((e) => ({ uid: e.uri, name: e.name, startsAt: e.startsAt, endsAt: e.endsAt, series: { ...e.series!, uid: `series-${id}` } })))
    expect(ics).toContain('RRULE:FREQ=WEEKLY;COUNT=4')
    expect(ics.match(/RECURRENCE-ID/g)).toHaveLength(3) // the moved date, and the two renamed after it
  })
})

describe('asking for a missing scope', () => {
  it('signs in again with the scope a ScopeMissingError named, and the PDS then mints the token', async () => {
    const ownerAccount = net.stack.accounts.find((a) => a.name === 'owner')!
    const scope = rpcScope('example.groups.notifyWrite', net.stack.host.aud)
    const start = await app.call('accounts.signIn', { handle: ownerAccount.handle, scopes: [scope] })
    const { completeOnPdsPages } = await import('../../support/browser-sign-in.js')
    await completeOnPdsPages(start.authorizeUrl, ownerAccount.password)
    await app.call('accounts.awaitSignIn', { attemptId: start.attemptId })
    const rt = await app.core.groups.runtime(owner)
    await expect(rt.auth.get(net.stack.host.aud, 'example.groups.notifyWrite')).resolves.toMatch(/^eyJ/)
  })
})
