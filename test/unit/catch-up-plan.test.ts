import { describe, expect, it } from 'vitest'
import { ownFromAnswers, planCatchUp, type Change, type SentAction } from '../../src/main/core/sync/catch-up'
import type { ListName } from '../../src/main/core/cache/list-names'

/**
 * The catch-up planner: which changes since the last sync are our own (applied from
 * what we sent, no list read again), and which lists everyone else's make us read.
 */
const ME = 'did:plc:me'
const GROUP = 'did:plc:group'
const ALICE = 'did:plc:alice'
const BOB = 'did:plc:bob'
const CAL = `at://${GROUP}/space/community.lexicon.calendar/self`
const event = (rkey: string) => `${CAL}/${GROUP}/community.lexicon.calendar.event/${rkey}`
const rsvp = (by: string, rkey: string) => `${CAL}/${by}/example.groups.rsvp/${rkey}`

let seq = 100
const change = (kind: string, subject?: string, at = seq++): Change => ({ seq: at, kind, ...(subject ? { subject } : {}), createdAt: '2026-01-01T00:00:00.000Z' })
const sent = (id: number, kind: SentAction['kind'], payload: Record<string, unknown>, answer: SentAction['answer'] = {}): SentAction => ({ id, kind, payload, answer })

interface Case {
  name: string
  changes: Change[]
  sent?: SentAction[]
  /** What identifies each sent action (as identifiersOf reads it from the cache). */
  ids?: Record<number, string[]>
  /** The lists read again (and whether the group view), 'everything', or nothing. */
  read: { lists: ListName[]; group?: boolean } | 'everything' | null
  /** The sent action each of our own changes was matched to, in order. */
  own?: [kind: string, actionId: number][]
}

const cases: Case[] = [
  { name: 'nothing happened: nothing to read', changes: [], read: null },
  { name: 'someone asked to join: the requests', changes: [change('joinRequest.created', 'req-1')], read: { lists: ['requests'] } },
  {
    name: 'our admit: its three changes are ours, nothing read',
    changes: [change('joinRequest.admitted', 'req-1'), change('member.joined', ALICE), change('invite.redeemed', `at://${GROUP}/invite/1`)],
    sent: [sent(1, 'joinRequest.decide', { did: ALICE, decision: 'admit' })],
    ids: { 1: [ALICE, 'req-1', `at://${GROUP}/invite/1`] },
    read: null,
    own: [['joinRequest.admitted', 1], ['member.joined', 1], ['invite.redeemed', 1]],
  },
  {
    name: 'someone else admitted another person: requests and members',
    changes: [change('joinRequest.admitted', 'req-2'), change('member.joined', BOB)],
    sent: [sent(1, 'joinRequest.decide', { did: ALICE, decision: 'admit' })],
    ids: { 1: [ALICE, 'req-1'] },
    read: { lists: ['requests', 'members'] },
  },
  {
    name: 'a change of a kind our action does not make is not ours, though it names the same person',
    changes: [change('member.ejected', ALICE)],
    sent: [sent(1, 'member.grantRole', { did: ALICE, role: 'moderator' })],
    ids: { 1: [ALICE] },
    read: { lists: ['members'] },
  },
  { name: 'my own roles moved: everything', changes: [change('member.roleRevoked', ME)], read: 'everything' },
  { name: 'someone else’s roles moved: the members', changes: [change('member.roleGranted', BOB)], read: { lists: ['members'] } },
  { name: 'a kind this app does not know: everything', changes: [change('poll.created', 'x')], read: 'everything' },
  {
    name: 'an unknown kind after our own change still reads everything, and keeps ours',
    changes: [change('member.roleGranted', ALICE), change('poll.created')],
    sent: [sent(1, 'member.grantRole', { did: ALICE, role: 'moderator' })],
    ids: { 1: [ALICE] },
    read: 'everything',
    own: [['member.roleGranted', 1]],
  },
  { name: 'the group was configured: the group view, and the members (a renamed role is renamed on its holders)', changes: [change('group.configured', GROUP)], read: { lists: ['members'], group: true } },
  { name: 'a ban alone moves no list', changes: [change('ban.created', BOB)], read: null },
  {
    name: 'an invite an older host named only in its log: ours, matched in order',
    changes: [change('invite.created', `at://${GROUP}/invite/abc`)],
    sent: [sent(1, 'invite.create', { invitee: BOB })],
    ids: { 1: [BOB] },
    read: null,
    own: [['invite.created', 1]],
  },
  {
    name: 'an invite whose answer named it: a second invite.created is someone else’s',
    changes: [change('invite.created', `at://${GROUP}/invite/other`), change('invite.created', `at://${GROUP}/invite/mine`)],
    sent: [sent(1, 'invite.create', { invitee: BOB }, { uri: `at://${GROUP}/invite/mine` })],
    ids: { 1: [BOB, `at://${GROUP}/invite/mine`] },
    read: { lists: ['invites'] },
    own: [['invite.created', 1]],
  },
  {
    name: 'the change at the seq the host answered is ours, whatever it names',
    changes: [change('subject.updated', 'opaque-key', 500)],
    sent: [sent(1, 'subject.event', { key: ALICE, subject: { did: ALICE }, event: 'escalate' }, { seq: 500 })],
    ids: { 1: [ALICE] },
    read: null,
    own: [['subject.updated', 1]],
  },
  {
    name: 'the same kind at another seq, naming something else, is not ours',
    changes: [change('subject.updated', BOB, 501)],
    sent: [sent(1, 'subject.event', { key: ALICE, subject: { did: ALICE }, event: 'escalate' }, { seq: 500 })],
    ids: { 1: [ALICE] },
    read: { lists: ['subjects'] },
  },
  {
    name: 'our RSVP is ours; another member’s answer to the same event is read',
    changes: [change('record.created', rsvp(ME, 'ev1')), change('record.created', rsvp(BOB, 'ev1'))],
    sent: [sent(1, 'event.rsvp', { rkey: 'ev1', status: 'going' })],
    ids: { 1: [rsvp(ME, 'ev1')] },
    read: { lists: ['events'] },
    own: [['record.created', 1]],
  },
  {
    // The host decides the answer's place at the event (issue 27 point 2): ours, and the events read again for it.
    name: 'our RSVP alone is ours, and still reads the events, where the host put our place',
    changes: [change('record.created', rsvp(ME, 'ev2'))],
    sent: [sent(1, 'event.rsvp', { rkey: 'ev2', status: 'going' })],
    ids: { 1: [rsvp(ME, 'ev2')] },
    read: { lists: ['events'] },
    own: [['record.created', 1]],
  },
  {
    name: 'someone promoted from an event’s waitlist: the events',
    changes: [change('rsvp.promoted', rsvp(BOB, 'ev1'))],
    read: { lists: ['events'] },
  },
  {
    // The calendar space our first event made is read, so the Spaces list shows it (issue 26).
    name: 'our first event: the record is ours; the calendar space it made is read into the spaces',
    changes: [change('space.created', CAL), change('record.created', event('ev1'))],
    sent: [sent(1, 'event.create', { rkey: 'ev1', event: { name: 'Picnic', startsAt: '2026-06-01T10:00:00Z' } })],
    ids: { 1: [event('ev1')] },
    read: { lists: ['spaces', 'events'] },
    own: [['record.created', 1]],
  },
  { name: 'someone else’s space: spaces and events', changes: [change('space.created', `at://${GROUP}/space/x.y/self`)], read: { lists: ['spaces', 'events'] } },
  { name: 'a space index record: the spaces', changes: [change('record.updated', `at://${GROUP}/space/members/self/${GROUP}/example.groups.space/x.y:self`)], read: { lists: ['spaces'] } },
  { name: 'an acceptance record: no list', changes: [change('record.created', `at://${GROUP}/space/members/self/${BOB}/example.groups.acceptance/self`)], read: null },
  { name: 'a takedown: events, spaces and the queue', changes: [change('record.takenDown', event('ev1'))], read: { lists: ['events', 'spaces', 'subjects'] } },
  { name: 'a report: the queue', changes: [change('subject.reported', BOB)], read: { lists: ['subjects'] } },
  {
    name: 'a redeemed invite not ours: invites, members and requests',
    changes: [change('invite.redeemed', `at://${GROUP}/invite/9`)],
    read: { lists: ['invites', 'members', 'requests'] },
  },
  {
    name: 'a refused report makes no change of ours: a report seen is read like anyone’s',
    changes: [change('subject.reported', BOB)],
    sent: [sent(1, 'report.create', { subject: { did: BOB }, reasonType: 'spam' })],
    ids: { 1: [BOB] },
    read: { lists: ['subjects'] },
  },
]

describe('planCatchUp', () => {
  it.each(cases)('$name', (c) => {
    const ids = new Map(Object.entries(c.ids ?? {}).map(([id, list]) => [Number(id), list]))
    const plan = planCatchUp(c.changes, c.sent ?? [], ids, ME, 'cursor-after')
    if (c.read === null || c.read === 'everything') expect(plan.read).toBe(c.read)
    else expect(plan.read).toEqual({ lists: new Set(c.read.lists), group: c.read.group ?? false, cursor: 'cursor-after' })
    expect(plan.own.map((o) => [o.change.kind, o.action.id])).toEqual(c.own ?? [])
  })
})

describe('ownFromAnswers', () => {
  const now = '2026-02-02T00:00:00.000Z'
  it('settles from the answers when every write said where its change went', () => {
    const own = ownFromAnswers(
      [
        sent(1, 'joinRequest.decide', { did: ALICE, decision: 'admit' }, { seq: 7 }),
        sent(2, 'invite.create', { invitee: BOB }, { seq: 8, uri: `at://${GROUP}/invite/new` }),
        sent(3, 'member.grantRole', { did: ALICE, role: 'moderator' }, { seq: 9 }),
      ],
      GROUP,
      now,
    )
    expect(own?.map((o) => [o.action.id, o.change])).toEqual([
      [1, { kind: 'member.joined', subject: ALICE, createdAt: now }],
      [2, { kind: 'invite.created', subject: `at://${GROUP}/invite/new`, createdAt: now }],
    ])
  })

  it('reads the log instead when what an action made elsewhere is read back like anyone’s (an ejection, a takedown, a report)', () => {
    expect(ownFromAnswers([sent(1, 'member.eject', { did: BOB }, { seq: 3 })], GROUP, now)).toBeNull()
    expect(ownFromAnswers([sent(1, 'subject.event', { key: BOB, subject: { did: BOB }, event: 'takedown' }, { seq: 3 })], GROUP, now)).toBeNull()
    expect(ownFromAnswers([sent(1, 'report.create', { subject: { did: BOB }, reasonType: 'spam' }, { seq: 3 })], GROUP, now)).toBeNull()
    expect(ownFromAnswers([sent(1, 'subject.event', { key: BOB, subject: { did: BOB }, event: 'escalate' }, { seq: 3 })], GROUP, now)).toEqual([])
  })

  it('reads the log instead when one answer lacks its seq (an older host, or the person’s own server)', () => {
    expect(ownFromAnswers([sent(1, 'member.grantRole', { did: BOB, role: 'admin' }, { seq: 3 }), sent(2, 'event.rsvp', { rkey: 'ev1', status: 'going' })], GROUP, now)).toBeNull()
  })
})
