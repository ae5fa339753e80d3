import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openCacheDb, type CacheDb } from '../../src/main/core/cache/cache-db'
import { readEventImage } from '../../src/main/core/calendar/event-image-cache'
import { putItem, readItems, type ItemKind } from '../../src/main/core/cache/items'
import { rememberHandle } from '../../src/main/core/people/list-handles'
import { ACTIONS, payloadSchema } from '../../src/main/core/actions/registry'
import type { ActionKind, ActionPayloads, ConfirmedChange } from '../../src/main/core/actions/action-spec'
import { settleOwn } from '../../src/main/core/sync/catch-up'
import { attendanceRkey, walkInKey } from '../../src/main/core/calendar/attendance-record'
import { undoCancelled } from '../../src/main/core/queue/cancel-effects'

/**
 * Every action's cached effect, as the window shows it: queued (at once, marked pending
 * until sent), then confirmed by the host (its change in the log, or the write's answer).
 * One case per kind, typed by kind, so a new action without one does not compile.
 */
const ME = 'did:plc:me'
const G = 'did:plc:group'
const ALICE = 'did:plc:alice'
const BOB = 'did:plc:bob'
const AT = '2026-03-01T12:00:00.000Z'
const OUTBOX_ID = 41

let dir: string
let cache: CacheDb
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'convene-action-effects-'))
  cache = await openCacheDb(dir, ME)
})
afterEach(async () => {
  await cache.destroy()
  fs.rmSync(dir, { recursive: true, force: true })
})

type Row = Record<string, unknown> & { pending: boolean }
/** A list as the window reads it from the cache: each row's view and whether it waits on an action. */
const shown = (kind: ItemKind) => readItems<Record<string, unknown>>(cache, G, kind) as Promise<Row[]>
const seed = async (kind: ItemKind, key: string, view: Record<string, unknown>) => putItem(cache, G, kind, key, view, null)

async function queue<K extends ActionKind>(kind: K, payload: ActionPayloads[K]) {
  // The payload is one the outbox's schema for the kind takes (the contract's, and what the core chose).
  expect(payloadSchema(kind).safeParse(payload).error).toBeUndefined()
  await cache.transaction().execute((tx) => ACTIONS[kind].applyToCache(tx, G, payload, OUTBOX_ID))
}
/** The host took the action: its own changes (from the log) settle it. */
async function confirm<K extends ActionKind>(kind: K, payload: ActionPayloads[K], changes: ConfirmedChange[] = []) {
  const action = { id: OUTBOX_ID, kind, payload: payload as Record<string, unknown>, answer: {} }
  await cache.transaction().execute((tx) => settleOwn(tx, G, [action], changes.map((change) => ({ change, action }))))
}

const request = { did: ALICE, id: 'req-1', handle: 'alice.test', message: 'Hello', createdAt: AT }
const member = (did: string, roles: string[]) => ({ did, handle: null, roles, joinedAt: AT, accepted: true })
const subject = { key: BOB, subject: { did: BOB }, status: 'open', takenDown: false, assignedTo: null, reportCount: 2 }
const calendar = `at://${G}/space/community.lexicon.calendar/self`
const eventUri = (rkey: string) => `${calendar}/${G}/community.lexicon.calendar.event/${rkey}`
/** A record key as the core chooses one (a TID): the stored payload's schema refuses anything else. */
const EV1 = '3lbxkeuvqhk2a'
const EV2 = '3lbxkeuvqhk2b'
const picnic = { rkey: EV1, uri: eventUri(EV1), name: 'Picnic', startsAt: '2026-06-01T10:00:00.000Z', endsAt: null, description: null, location: null, createdAt: AT, myRsvp: null }
const space = { uri: `at://${G}/space/example.forum/self`, type: 'example.forum', skey: 'self', name: 'Forum', readableBy: ['member'], credentialScopes: [], wellKnown: false }

/** One test per action kind (a kind missing here does not compile). */
const EFFECTS: Record<ActionKind, () => Promise<void>> = {
  'joinRequest.decide': async () => {
    await seed('joinRequest', ALICE, request)
    const admit = { did: ALICE, decision: 'admit' as const, roles: ['moderator', 'member'] }
    await queue('joinRequest.decide', admit)
    expect(await shown('joinRequest')).toEqual([{ ...request, pending: true }])
    await confirm('joinRequest.decide', admit, [{ kind: 'member.joined', subject: ALICE, createdAt: AT }])
    expect(await shown('joinRequest')).toEqual([])
    expect(await shown('member')).toEqual([{ did: ALICE, handle: 'alice.test', roles: ['member', 'moderator'], joinedAt: AT, accepted: false, pending: false }])
  },
  'invite.create': async () => {
    const payload = { invitee: BOB, message: 'Join us' }
    await queue('invite.create', payload)
    expect(await shown('invite')).toEqual([expect.objectContaining({ invitee: BOB, uri: '', message: 'Join us', pending: true })])
    await confirm('invite.create', payload, [{ kind: 'invite.created', subject: 'pending:abc', createdAt: AT }])
    expect(await shown('invite')).toEqual([expect.objectContaining({ invitee: BOB, uri: 'pending:abc', createdAt: AT, awaitingInvitee: true, pending: false })])
  },
  'invite.revoke': async () => {
    await seed('invite', BOB, { invitee: BOB, uri: `at://${G}/invite/1` })
    await queue('invite.revoke', { invitee: BOB })
    expect(await shown('invite')).toEqual([expect.objectContaining({ invitee: BOB, pending: true })])
    await confirm('invite.revoke', { invitee: BOB })
    expect(await shown('invite')).toEqual([])
  },
  'member.grantRole': async () => {
    await seed('member', ALICE, member(ALICE, ['member']))
    await queue('member.grantRole', { did: ALICE, role: 'admin' })
    expect(await shown('member')).toEqual([{ ...member(ALICE, ['admin', 'member']), pending: true }])
    await confirm('member.grantRole', { did: ALICE, role: 'admin' })
    expect(await shown('member')).toEqual([{ ...member(ALICE, ['admin', 'member']), pending: false }])
  },
  'member.revokeRole': async () => {
    await seed('member', ALICE, member(ALICE, ['member', 'moderator']))
    await queue('member.revokeRole', { did: ALICE, role: 'moderator' })
    expect(await shown('member')).toEqual([{ ...member(ALICE, ['member']), pending: true }])
  },
  'member.eject': async () => {
    await seed('member', ALICE, member(ALICE, ['member']))
    await seed('member', BOB, member(BOB, ['member']))
    await queue('member.eject', { did: ALICE })
    expect((await shown('member')).map((m) => [m.did, m.pending])).toEqual([[ALICE, true], [BOB, false]])
    await confirm('member.eject', { did: ALICE })
    expect((await shown('member')).map((m) => m.did)).toEqual([BOB])
  },
  'membership.request': async () => {
    await queue('membership.request', { message: 'May I?' })
    expect(await shown('myJoinRequest')).toEqual([{ createdAt: expect.any(String), message: 'May I?', pending: true }])
    await confirm('membership.request', { message: 'May I?' })
    expect(await shown('myJoinRequest')).toEqual([expect.objectContaining({ message: 'May I?', pending: false })])
  },
  'membership.cancelRequest': async () => {
    await seed('myJoinRequest', 'self', { createdAt: AT, message: null })
    await queue('membership.cancelRequest', {})
    expect(await shown('myJoinRequest')).toEqual([{ createdAt: AT, message: null, pending: true }])
  },
  'membership.accept': async () => {
    const notYet = { ...member(ME, ['member']), accepted: false }
    await seed('member', ME, notYet)
    await queue('membership.accept', {})
    expect(await shown('member')).toEqual([{ ...notYet, pending: false }])
    // The host counted it before the app read the log: the change is ours, and says so.
    await confirm('membership.accept', {}, [{ kind: 'member.accepted', subject: ME, createdAt: AT }])
    expect(await shown('member')).toEqual([{ ...notYet, accepted: true, pending: false }])
  },
  'membership.leave': async () => {
    await seed('member', ME, member(ME, ['member']))
    await cache.insertInto('group_row').values({ did: G, view: JSON.stringify({ did: G, viewer: { roles: ['member'], actions: ['event.rsvp'] } }), hostUrl: 'http://host.test', hostAud: 'did:web:host.test#groups', changeCursor: 'c1', syncedAt: AT }).execute()
    await queue('membership.leave', {})
    expect(await shown('member')).toEqual([{ ...member(ME, ['member']), pending: false }])
    // The host's answer settles it (a non-member may not read the log): no role is left, and the group is read whole next.
    await confirm('membership.leave', {}, [{ kind: 'member.left', createdAt: AT }])
    const row = await cache.selectFrom('group_row').select(['view', 'changeCursor']).where('did', '=', G).executeTakeFirstOrThrow()
    expect(JSON.parse(row.view).viewer).toEqual({ roles: [], actions: [] })
    expect(row.changeCursor).toBeNull()
  },
  'subject.update': async () => {
    await seed('subject', BOB, subject)
    await queue('subject.update', { key: BOB, subject: { did: BOB }, status: 'escalated' })
    expect(await shown('subject')).toEqual([{ ...subject, status: 'escalated', pending: true }])
  },
  'subject.event': async () => {
    await seed('subject', BOB, subject)
    await rememberHandle(cache, ME, 'me.test')
    await queue('subject.event', { key: BOB, subject: { did: BOB }, event: 'assign', by: ME })
    const [taken] = await shown('subject')
    expect(taken).toMatchObject({ status: 'open', assignedTo: { did: ME, handle: 'me.test' }, pending: true })
    expect(Date.parse((taken!.assignedTo as { endAt: string }).endAt)).toBeGreaterThan(Date.now())
    // Pinned to the top by whoever pinned it; a decision unpins.
    await queue('subject.event', { key: BOB, subject: { did: BOB }, event: 'pin', by: ME })
    expect((await shown('subject'))[0]).toMatchObject({ pinned: { did: ME, handle: 'me.test' }, pending: true })
    await queue('subject.event', { key: BOB, subject: { did: BOB }, event: 'takedown' })
    expect(await shown('subject')).toEqual([{ ...subject, status: 'resolved', takenDown: true, assignedTo: null, pinned: null, pending: true }])
    await queue('subject.event', { key: BOB, subject: { did: BOB }, event: 'reverseTakedown' })
    expect(await shown('subject')).toEqual([{ ...subject, status: 'resolved', takenDown: false, assignedTo: null, pinned: null, pending: true }])
  },
  'report.create': async () => {
    await seed('subject', BOB, subject)
    await queue('report.create', { subject: { did: BOB }, reasonType: 'com.atproto.moderation.defs#reasonSpam' })
    expect(await shown('subject')).toEqual([{ ...subject, pending: false }])
  },
  'event.create': async () => {
    const payload = { rkey: EV2, event: { name: 'Walk', startsAt: '2026-07-01T09:00:00.000Z', location: 'Park' } }
    await queue('event.create', payload)
    expect(await shown('event')).toEqual([expect.objectContaining({ rkey: EV2, uri: '', name: 'Walk', location: 'Park', endsAt: null, myRsvp: null, pending: true })])
    await confirm('event.create', payload, [{ kind: 'record.created', subject: eventUri(EV2), createdAt: AT }])
    expect(await shown('event')).toEqual([expect.objectContaining({ rkey: EV2, uri: eventUri(EV2), pending: false })])
  },
  'event.update': async () => {
    await seed('event', EV1, picnic)
    await queue('event.update', { rkey: EV1, event: { name: 'Picnic (moved)', startsAt: '2026-06-02T10:00:00.000Z' } })
    // The form owns the published lexicon's mode, status, places and links too: not given, they are cleared.
    const cleared = { mode: null, status: null, locations: [], uris: [] }
    expect(await shown('event')).toEqual([{ ...picnic, ...cleared, name: 'Picnic (moved)', startsAt: '2026-06-02T10:00:00.000Z', pending: true }])
    // Cancelling is an edit of the status: the event stays, with its places and links.
    const place = { kind: 'address' as const, country: 'DE', locality: 'Berlin' }
    await queue('event.update', { rkey: EV1, event: { name: 'Picnic', startsAt: picnic.startsAt, status: 'cancelled', mode: 'hybrid', locations: [place], uris: [{ uri: 'https://tickets.example/' }] } })
    expect(await shown('event')).toEqual([
      { ...picnic, mode: 'hybrid', status: 'cancelled', locations: [place], uris: [{ uri: 'https://tickets.example/' }], pending: true },
    ])
  },
  'event.delete': async () => {
    await seed('event', EV1, picnic)
    await queue('event.delete', { rkey: EV1 })
    expect(await shown('event')).toEqual([{ ...picnic, pending: true }])
    await confirm('event.delete', { rkey: EV1 })
    expect(await shown('event')).toEqual([])
  },
  'event.rsvp': async () => {
    await seed('event', EV1, picnic)
    await queue('event.rsvp', { rkey: EV1, status: 'going' })
    expect(await shown('event')).toEqual([{ ...picnic, myRsvp: 'going', pending: true }])
  },
  'event.capacity': async () => {
    await seed('event', EV1, picnic)
    await queue('event.capacity', { rkey: EV1, capacity: 12 })
    expect(await shown('event')).toEqual([{ ...picnic, capacity: 12, pending: true }])
    await queue('event.capacity', { rkey: EV1, capacity: null })
    expect(await shown('event')).toEqual([{ ...picnic, capacity: null, pending: true }])
  },
  'event.standing': async () => {
    const waiting = { did: BOB, handle: null, status: 'going', standing: 'waitlisted', waitlistPosition: 1 }
    await seed('event', EV1, { ...picnic, rsvps: [waiting] })
    await queue('event.standing', { rkey: EV1, did: BOB, standing: 'going' })
    expect(await shown('event')).toEqual([{ ...picnic, rsvps: [{ ...waiting, standing: 'going', waitlistPosition: null }], pending: true }])
  },
  'space.create': async () => {
    const payload = { type: 'example.forum', skey: 'self', name: 'Forum', readableBy: ['member'], credentialScopes: [] }
    await ACTIONS['space.create'].validate!(cache, G, payload)
    await queue('space.create', payload)
    expect(await shown('space')).toEqual([{ ...space, pending: true }])
    // The same kind of space is refused before it is queued, in words.
    await expect(ACTIONS['space.create'].validate!(cache, G, { ...payload, name: 'Forum again' })).rejects.toThrow('This group already has that space: “Forum”.')
  },
  'space.update': async () => {
    await seed('space', 'example.forum:self', space)
    await queue('space.update', { space: space.uri, name: 'Town square' })
    expect(await shown('space')).toEqual([{ ...space, name: 'Town square', pending: true }])
  },
  'space.delete': async () => {
    await seed('space', 'example.forum:self', space)
    await queue('space.delete', { space: space.uri })
    expect(await shown('space')).toEqual([{ ...space, pending: true }])
    await confirm('space.delete', { space: space.uri })
    expect(await shown('space')).toEqual([])
  },
  // The group's settings have no cached rows: the group is read again once the host took them.
  'group.configure': async () => {
    await seed('member', ME, member(ME, ['owner']))
    await queue('group.configure', { displayName: 'Harbour walkers', joinPolicy: 'approval' })
    expect(await shown('member')).toEqual([{ ...member(ME, ['owner']), pending: false }])
  },
  'role.put': async () => {
    await seed('member', ALICE, member(ALICE, ['member']))
    await queue('role.put', { name: 'greeter', actions: ['admit'], assignable: [] })
    expect(await shown('member')).toEqual([{ ...member(ALICE, ['member']), pending: false }])
  },
  'role.delete': async () => {
    await seed('member', ALICE, member(ALICE, ['member', 'greeter']))
    // Not queued while someone holds it: taking it from them is a decision about each.
    await expect(ACTIONS['role.delete'].validate!(cache, G, { name: 'greeter' })).rejects.toThrow('One member holds the greeter role. Take it from them first.')
    await expect(ACTIONS['role.delete'].validate!(cache, G, { name: 'member' })).rejects.toThrow(/cannot be deleted/)
    await expect(ACTIONS['role.delete'].validate!(cache, G, { name: 'helper' })).resolves.toBeUndefined()
  },
  'post.create': async () => {
    // Nothing cached changes: the post is in the group's public repository, read live.
    await seed('event', EV1, { rkey: EV1, name: 'Picnic' })
    await queue('post.create', { text: 'Picnic on Sunday', rkey: EV2 })
    expect(await shown('event')).toEqual([{ rkey: EV1, name: 'Picnic', pending: false }])
    expect(ACTIONS['post.create'].identifiers({ text: 'x', rkey: EV2 }, { groupDid: G } as never)).toEqual([`at://${G}/app.bsky.feed.post/${EV2}`])
  },
  'post.pin': async () => {
    await queue('post.pin', { post: { uri: `at://${G}/app.bsky.feed.post/${EV2}`, cid: 'bafyrei' } })
    expect(ACTIONS['post.pin'].identifiers({ post: null }, { groupDid: G } as never)).toEqual([`at://${G}/app.bsky.actor.profile/self`])
  },
  'event.image': async () => {
    // The chosen picture shows on the event at once: the row names it (a provisional key, its bytes
    // held), and the window reads the bytes by that key, as a data: URL; removing it takes it off.
    await seed('event', EV1, picnic)
    await queue('event.image', { rkey: EV1, image: { data: 'iVBORw0KGgo=', mimeType: 'image/png', alt: 'The picnic blanket' } })
    const key = `pending:${OUTBOX_ID}`
    expect(await shown('event')).toEqual([{ ...picnic, image: { cid: key, alt: 'The picnic blanket', held: true }, pending: true }])
    expect(await readEventImage(cache, G, key)).toEqual({ url: 'data:image/png;base64,iVBORw0KGgo=' })
    // The bytes never ride on the event row.
    expect(JSON.stringify(await shown('event'))).not.toContain('iVBORw0KGgo')
    await queue('event.image', { rkey: EV1, image: null })
    expect(await shown('event')).toEqual([{ ...picnic, image: null, pending: true }])
    // Named by its record beside the event, at the event's rkey.
    expect(ACTIONS['event.image'].identifiers({ rkey: EV1, image: null }, { groupDid: G } as never)).toEqual([`${calendar}/${G}/example.groups.eventImage/${EV1}`])
  },
  'attendance.checkIn': async () => {
    const payload = { rkey: EV1, did: ALICE, walkIn: false, checkedInAt: AT, device: 'Door A' }
    await queue('attendance.checkIn', payload)
    const key = attendanceRkey(EV1, ALICE)
    // At once, from the cache: the door shows them in before the host hears of it.
    expect(await shown('attendance')).toEqual([{ rkey: key, event: EV1, did: ALICE, checkedInAt: AT, device: 'Door A', walkIn: false, pending: true }])
    // The key is the event's and the person's: a replay lands on the same record.
    expect(key).toMatch(new RegExp(`^${EV1}-[0-9a-f]{16}$`))
    expect(attendanceRkey(EV1, ALICE)).toBe(key)
    expect(attendanceRkey(EV1, BOB)).not.toBe(key)
    await confirm('attendance.checkIn', payload)
    expect(await shown('attendance')).toEqual([expect.objectContaining({ did: ALICE, pending: false })])
  },
  'attendance.undo': async () => {
    const key = attendanceRkey(EV1, ALICE)
    await seed('attendance', key, { rkey: key, event: EV1, did: ALICE, checkedInAt: AT, device: 'Door A', walkIn: false })
    await queue('attendance.undo', { rkey: EV1, did: ALICE })
    expect(await shown('attendance')).toEqual([expect.objectContaining({ did: ALICE, pending: true })])
    await confirm('attendance.undo', { rkey: EV1, did: ALICE })
    expect(await shown('attendance')).toEqual([])
  },
}

describe('each action’s cached effect, as the window shows it', () => {
  it.each(Object.entries(EFFECTS))('%s', async (_kind, run) => run())

  it('a denied request goes once confirmed, and no member appears', async () => {
    await seed('joinRequest', ALICE, request)
    await queue('joinRequest.decide', { did: ALICE, decision: 'deny' })
    await confirm('joinRequest.decide', { did: ALICE, decision: 'deny' }, [{ kind: 'joinRequest.denied', subject: 'req-1', createdAt: AT }])
    expect(await shown('joinRequest')).toEqual([])
    expect(await shown('member')).toEqual([])
  })

  it('a walk-in queued by handle (not looked up yet) shows at once by the handle, and a cancel takes it off', async () => {
    const payload = { rkey: EV1, handle: 'sam.test', walkIn: true, checkedInAt: AT, device: 'Door A' }
    await queue('attendance.checkIn', payload)
    // No DID yet: shown under the handle, apart from every DID's key, waiting to be sent.
    expect(await shown('attendance')).toEqual([{ rkey: walkInKey(EV1, 'sam.test'), event: EV1, did: '', handle: 'sam.test', checkedInAt: AT, device: 'Door A', walkIn: true, pending: true }])
    expect(walkInKey(EV1, 'sam.test')).not.toMatch(new RegExp(`^${EV1}-[0-9a-f]{16}$`))
    // Its outbox row says whom, by the handle typed.
    expect(ACTIONS['attendance.checkIn'].label(payload, (did) => did)).toBe('Check in @sam.test (walk-in)')
    // Named for the catch-up by the address its send answered (the payload has no DID to name it by).
    const uri = `${calendar}/${G}/example.groups.attendance/${attendanceRkey(EV1, ALICE)}`
    expect(ACTIONS['attendance.checkIn'].identifiers(payload, { groupDid: G, answer: { uri } } as never)).toEqual([uri])
    await cache.transaction().execute((tx) => undoCancelled(tx, G, ACTIONS['attendance.checkIn'].undo, OUTBOX_ID))
    expect(await shown('attendance')).toEqual([])
  })

  it('an action on a row the cache no longer holds shows nothing rather than a half row', async () => {
    await queue('member.grantRole', { did: ALICE, role: 'admin' })
    await queue('event.rsvp', { rkey: 'gone', status: 'going' })
    await queue('subject.event', { key: BOB, subject: { did: BOB }, event: 'escalate' })
    expect([...(await shown('member')), ...(await shown('event')), ...(await shown('subject'))]).toEqual([])
  })
})

describe('the stored payload’s schema', () => {
  it('is the contract’s, strict, with what the core chose when queued', () => {
    expect(payloadSchema('invite.revoke').safeParse({ invitee: BOB }).success).toBe(true)
    expect(payloadSchema('invite.revoke').safeParse({ invitee: BOB, extra: 1 }).success).toBe(false)
    expect(payloadSchema('invite.revoke').safeParse({ invitee: 'bob' }).success).toBe(false)
    expect(payloadSchema('event.create').safeParse({ event: { name: 'Walk', startsAt: AT } }).success).toBe(false)
    expect(payloadSchema('event.create').safeParse({ rkey: EV1, event: { name: 'Walk', startsAt: AT } }).success).toBe(true)
    expect(payloadSchema('subject.event').safeParse({ key: BOB, subject: { did: BOB }, event: 'assign', by: ME }).success).toBe(true)
  })

  it('reads a check-in by DID as stored before walk-ins by handle, and one by handle', () => {
    const chosen = { checkedInAt: AT, device: 'Door A' }
    // A row queued by an earlier version: no handle field.
    expect(payloadSchema('attendance.checkIn').parse({ rkey: EV1, did: ALICE, walkIn: false, ...chosen })).toEqual({ rkey: EV1, did: ALICE, walkIn: false, ...chosen })
    expect(payloadSchema('attendance.checkIn').parse({ rkey: EV1, handle: 'sam.test', walkIn: true, ...chosen })).toEqual({ rkey: EV1, handle: 'sam.test', walkIn: true, ...chosen })
    expect(payloadSchema('attendance.checkIn').safeParse({ rkey: EV1, handle: 'not a handle', walkIn: true, ...chosen }).success).toBe(false)
  })
})
