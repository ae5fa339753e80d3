import type { Transaction } from 'kysely'
import type { z } from 'zod'
import { TID } from '@atproto/common-web'
import type { GroupAction } from '@shared/ipc/contract.js'
import type { CacheSchema } from '../cache/cache-db.js'
import { markPending, putItem, readItem } from '../cache/items.js'
import type { ActionHandler } from '../outbox/outbox.js'
import { parseStored, QUEUED_PAYLOADS } from '../outbox/queued-payloads.js'
import type { AccountRuntime } from '../session/account-runtime.js'
import type { Member } from '@node/lexicon/types/example/groups/defs.js'
import { ERROR_MESSAGES } from '@shared/errors.js'
import { spaceRecordAddress } from '@shared/space-address.js'
import { ACCEPTANCE_COLLECTION, calendarSpace, ensureCalendarSpace, EVENT_COLLECTION, eventRecord, membersSpace, RSVP_COLLECTION } from '../calendar/calendar-space.js'
import { memberWrite } from '../calendar/member-writes.js'
import type { SpaceWrite } from '../credentials/group-credentials.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { JOIN_ACTIONS } from './join-actions.js'
import { viaHost } from './via-host.js'
import { MODERATION_ACTIONS } from '../moderation/moderation-actions.js'
import type { ProcedureInput } from '../xrpc/methods.js'

type Tx = Transaction<CacheSchema>

/** An organizer action as the renderer asks for it: the IPC contract's GroupAction, parsed. */
export type RequestedAction = z.output<typeof GroupAction>
export type ActionKind = RequestedAction['kind']
type Requested<K extends ActionKind> = Omit<Extract<RequestedAction, { kind: K }>, 'kind'>
/** What the core chooses when it queues an action: a new event's record key, so a replay re-sends the same record. */
interface ChosenWhenQueued {
  'event.create': { rkey: string }
  /** Who takes a subject ("I'm on it"): the account acting, shown as having it at once. */
  'subject.event': { by?: string }
}
/** Every organizer action the app can queue, by kind: the contract's fields, plus what the core chose. */
export type ActionPayloads = { [K in ActionKind]: Requested<K> & (K extends keyof ChosenWhenQueued ? ChosenWhenQueued[K] : unknown) }

/** What an organizer edits of a calendar event (community.lexicon.calendar.event). */
export type EventFields = Requested<'event.create'>['event']

export interface ActionSpec<K extends ActionKind> {
  /**
   * Sends the action: a host method with service auth (viaHost), a group credential, or
   * the member's own PDS. `key` is the queued action's idempotency key (hosts that take
   * one, such as createReport, count a replay once).
   */
  send(rt: AccountRuntime, groupDid: string, p: ActionPayloads[K], key: string): Promise<void>
  label(p: ActionPayloads[K]): string
  /** The cached effect, applied when queued and re-applied over each refresh until sent. */
  applyToCache(tx: Tx, groupDid: string, p: ActionPayloads[K], outboxId: number): Promise<void>
  conflicts: Partial<Record<string, string>>
  /** After an interrupted attempt: is the intended end state already there? */
  alreadyApplied?(rt: AccountRuntime, groupDid: string, p: ActionPayloads[K]): Promise<boolean>
}

async function memberOnHost(rt: AccountRuntime, groupDid: string, did: string): Promise<Member | null> {
  const host = await rt.hostOf(groupDid)
  const { members } = await host.query('example.groups.listMembers', { group: groupDid, q: did, limit: 100 })
  return members.find((m) => m.did === did) ?? null
}

/** The lexicon's union needs its member named. */
const typedSubject = (s: { did: string } | { uri: string; cid?: string }) =>
  'did' in s ? { $type: 'example.groups.defs#subjectAccount', did: s.did } : { $type: 'example.groups.defs#subjectRecord', ...s }


const definedOnly = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))

const HOST_ACTIONS: { [K in Exclude<ActionKind, keyof typeof CALENDAR_ACTIONS | keyof typeof JOIN_ACTIONS | keyof typeof MODERATION_ACTIONS>]: ActionSpec<K> } = {
  'joinRequest.decide': {
    send: viaHost('example.groups.admitMember', (group, p) => ({ group, did: p.did, decision: p.decision, ...(p.roles ? { roles: p.roles } : {}) })),
    label: (p) => `${p.decision === 'admit' ? 'Admit' : 'Deny'} ${p.did}`,
    applyToCache: (tx, g, p, id) => markPending(tx, g, 'joinRequest', p.did, id),
    conflicts: { RequestNotFound: 'Someone else already decided this request, or it was withdrawn.', AlreadyMember: ERROR_MESSAGES.AlreadyMember! },
    alreadyApplied: async (rt, g, p) => (p.decision === 'admit' ? !!(await memberOnHost(rt, g, p.did)) : false),
  },
  'invite.create': {
    send: viaHost('example.groups.createInvite', (group, p) => ({ group, invitee: p.invitee, ...(p.message ? { message: p.message } : {}) })),
    label: (p) => `Invite ${p.invitee}`,
    applyToCache: (tx, g, p, id) =>
      putItem(tx, g, 'invite', p.invitee, { uri: '', invitee: p.invitee, createdAt: new Date().toISOString(), expiresAt: null, message: p.message ?? null, awaitingInvitee: false }, id),
    conflicts: { AlreadyMember: 'They joined the group before the invite was sent.' },
  },
  'invite.revoke': {
    send: viaHost('example.groups.revokeInvite', (group, p) => ({ group, invitee: p.invitee })),
    label: (p) => `Revoke the invite for ${p.invitee}`,
    applyToCache: (tx, g, p, id) => markPending(tx, g, 'invite', p.invitee, id),
    conflicts: { InviteNotFound: 'That invite was already used or revoked.' },
  },
  'member.grantRole': {
    send: viaHost('example.groups.grantRole', (group, p) => ({ group, did: p.did, role: p.role })),
    label: (p) => `Give ${p.did} the ${p.role} role`,
    applyToCache: async (tx, g, p, id) => {
      const m = await readItem<{ roles: string[] }>(tx, g, 'member', p.did)
      if (m) await putItem(tx, g, 'member', p.did, { ...m, roles: [...new Set([...m.roles, p.role])].sort() }, id)
    },
    conflicts: { NotAMember: 'They are no longer a member.', NotAssignable: ERROR_MESSAGES.NotAssignable! },
  },
  'member.revokeRole': {
    send: viaHost('example.groups.revokeRole', (group, p) => ({ group, did: p.did, role: p.role })),
    label: (p) => `Take the ${p.role} role from ${p.did}`,
    applyToCache: async (tx, g, p, id) => {
      const m = await readItem<{ roles: string[] }>(tx, g, 'member', p.did)
      if (m) await putItem(tx, g, 'member', p.did, { ...m, roles: m.roles.filter((r) => r !== p.role) }, id)
    },
    conflicts: { NotAMember: 'They are no longer a member.', NotAssignable: ERROR_MESSAGES.NotAssignable!, LastConfigurer: ERROR_MESSAGES.LastConfigurer! },
  },
  'member.eject': {
    send: viaHost('example.groups.ejectMember', (group, p) => ({ group, did: p.did, ...(p.note ? { note: p.note } : {}) })),
    label: (p) => `Remove ${p.did} from the group`,
    applyToCache: (tx, g, p, id) => markPending(tx, g, 'member', p.did, id),
    conflicts: { NotAMember: 'They had already left or been removed.', NotAssignable: ERROR_MESSAGES.NotAssignable!, LastConfigurer: ERROR_MESSAGES.LastConfigurer! },
    alreadyApplied: async (rt, g, p) => !(await memberOnHost(rt, g, p.did)),
  },
  'space.create': {
    send: viaHost('example.groups.createSpace', (group, p) => ({ group, ...p })),
    label: (p) => `Create the space “${p.name}”`,
    applyToCache: (tx, g, p, id) =>
      putItem(tx, g, 'space', `${p.type}:${p.skey}`, { uri: `at://${g}/space/${p.type}/${p.skey}`, ...p, wellKnown: false }, id),
    conflicts: { InvalidRequest: 'A space of that kind already exists, or its settings were refused.', Forbidden: ERROR_MESSAGES.Forbidden! },
  },
  'space.update': {
    send: viaHost('example.groups.updateSpace', (group, p) => ({ group, ...p })),
    label: (p) => `Change the space ${p.space.split('/space/')[1] ?? p.space}`,
    applyToCache: async (tx, g, p, id) => {
      const key = p.space.split('/space/')[1]!.replace('/', ':')
      const current = await readItem<Record<string, unknown>>(tx, g, 'space', key)
      if (current) await putItem(tx, g, 'space', key, { ...current, ...definedOnly(p) }, id)
    },
    conflicts: { SpaceNotFound: ERROR_MESSAGES.SpaceNotFound!, WellKnownSpace: ERROR_MESSAGES.WellKnownSpace!, Forbidden: ERROR_MESSAGES.Forbidden! },
  },
  'space.delete': {
    send: viaHost('example.groups.deleteSpace', (group, p) => ({ group, space: p.space })),
    label: (p) => `Delete the space ${p.space.split('/space/')[1] ?? p.space}`,
    applyToCache: (tx, g, p, id) => markPending(tx, g, 'space', p.space.split('/space/')[1]!.replace('/', ':'), id),
    conflicts: { SpaceNotFound: 'That space was already deleted.', WellKnownSpace: ERROR_MESSAGES.WellKnownSpace!, Forbidden: ERROR_MESSAGES.Forbidden! },
    alreadyApplied: async (rt, g, p) => {
      const host = await rt.hostOf(g)
      const key = p.space.split('/space/')[1]!.replace('/', ':')
      return host
        .query('com.atproto.space.getRecord', { space: membersSpace(g), repo: g, collection: 'example.groups.space', rkey: key })
        .then(() => false)
        .catch((err: unknown) => err instanceof XrpcCallError && err.error === 'RecordNotFound')
    },
  },
  'subject.update': {
    send: viaHost('example.groups.updateSubject', (group, p) => ({ group, subject: typedSubject(p.subject), status: p.status, ...(p.note ? { note: p.note } : {}) })),
    label: (p) => `Mark a report ${p.status}`,
    applyToCache: async (tx, g, p, id) => {
      const s = await readItem<{ status: string }>(tx, g, 'subject', p.key)
      if (s) await putItem(tx, g, 'subject', p.key, { ...s, status: p.status }, id)
    },
    conflicts: { SubjectNotFound: ERROR_MESSAGES.SubjectNotFound! },
  },
}

async function eventOnHost(rt: AccountRuntime, groupDid: string, rkey: string): Promise<boolean> {
  const host = await rt.hostOf(groupDid)
  return host
    .query('com.atproto.space.getRecord', { space: calendarSpace(groupDid), repo: groupDid, collection: EVENT_COLLECTION, rkey })
    .then(() => true)
    .catch(() => false)
}

async function writeEvent<M extends SpaceWrite>(rt: AccountRuntime, groupDid: string, method: M, input: (space: string) => ProcedureInput<M>) {
  const host = await rt.hostOf(groupDid)
  const space = await ensureCalendarSpace(host, groupDid, rt.knownSpaces)
  try {
    await rt.credentials.write(host.host, groupDid, space, method, input(space))
  } catch (err) {
    if (err instanceof XrpcCallError && err.error === 'SpaceNotFound') rt.knownSpaces.delete(space)
    throw err
  }
}

const CALENDAR_ACTIONS: { [K in 'event.create' | 'event.update' | 'event.delete' | 'event.rsvp' | 'membership.accept' | 'membership.leave']: ActionSpec<K> } = {
  'event.create': {
    // The rkey is chosen when the action is queued, so a replay cannot make a second event.
    send: (rt, g, p) => writeEvent(rt, g, 'com.atproto.space.createRecord', (space) => ({ space, repo: g, collection: EVENT_COLLECTION, rkey: p.rkey, record: eventRecord(p.event, new Date().toISOString()) })),
    label: (p) => `Add “${p.event.name}” to the calendar`,
    applyToCache: (tx, g, p, id) =>
      putItem(tx, g, 'event', p.rkey, { rkey: p.rkey, uri: '', ...nullable(p.event), createdAt: new Date().toISOString(), myRsvp: null }, id),
    conflicts: { Forbidden: 'Your role cannot add events to this group’s calendar.' },
    alreadyApplied: (rt, g, p) => eventOnHost(rt, g, p.rkey),
  },
  'event.update': {
    send: (rt, g, p) => writeEvent(rt, g, 'com.atproto.space.putRecord', (space) => ({ space, repo: g, collection: EVENT_COLLECTION, rkey: p.rkey, record: eventRecord(p.event, new Date().toISOString()) })),
    label: (p) => `Update “${p.event.name}”`,
    applyToCache: async (tx, g, p, id) => {
      const e = await readItem<Record<string, unknown>>(tx, g, 'event', p.rkey)
      if (e) await putItem(tx, g, 'event', p.rkey, { ...e, ...nullable(p.event) }, id)
    },
    conflicts: { Forbidden: 'Your role cannot change this group’s calendar.' },
  },
  'event.delete': {
    send: (rt, g, p) => writeEvent(rt, g, 'com.atproto.space.deleteRecord', (space) => ({ space, repo: g, collection: EVENT_COLLECTION, rkey: p.rkey })),
    label: () => 'Remove an event from the calendar',
    applyToCache: (tx, g, p, id) => markPending(tx, g, 'event', p.rkey, id),
    conflicts: { Forbidden: 'Your role cannot change this group’s calendar.' },
  },
  'event.rsvp': {
    // The RSVP's rkey is the event's, so answering again overwrites (spec section 4).
    send: async (rt, g, p) =>
      memberWrite(await rt.session(), 'com.atproto.space.putRecord', {
        space: calendarSpace(g),
        collection: RSVP_COLLECTION,
        rkey: p.rkey,
        record: { $type: RSVP_COLLECTION, subject: spaceRecordAddress(calendarSpace(g), g, EVENT_COLLECTION, p.rkey), status: p.status, createdAt: new Date().toISOString() },
      }),
    label: (p) => `RSVP “${p.status}”`,
    applyToCache: async (tx, g, p, id) => {
      const e = await readItem<Record<string, unknown>>(tx, g, 'event', p.rkey)
      if (e) await putItem(tx, g, 'event', p.rkey, { ...e, myRsvp: p.status }, id)
    },
    conflicts: {},
  },
  'membership.accept': {
    send: async (rt, g) =>
      memberWrite(await rt.session(), 'com.atproto.space.putRecord', {
        space: membersSpace(g),
        collection: ACCEPTANCE_COLLECTION,
        rkey: 'self',
        record: { $type: ACCEPTANCE_COLLECTION, createdAt: new Date().toISOString() },
      }),
    label: () => 'Accept your membership',
    applyToCache: async () => {},
    conflicts: {},
  },
  'membership.leave': {
    // The member's acceptance goes first (spec section 3), then the host is told.
    send: async (rt, g) => {
      await memberWrite(await rt.session(), 'com.atproto.space.deleteRecord', { space: membersSpace(g), collection: ACCEPTANCE_COLLECTION, rkey: 'self' })
      await (await rt.hostOf(g)).procedure('example.groups.leaveGroup', { group: g })
    },
    label: () => 'Leave the group',
    applyToCache: async () => {},
    conflicts: { NotAMember: 'You had already left this group.', LastConfigurer: ERROR_MESSAGES.LastConfigurer! },
  },
}

const nullable = (e: EventFields) => ({ name: e.name, startsAt: e.startsAt, endsAt: e.endsAt ?? null, description: e.description ?? null, location: e.location ?? null })

export const ACTIONS: { [K in ActionKind]: ActionSpec<K> } = { ...HOST_ACTIONS, ...CALENDAR_ACTIONS, ...JOIN_ACTIONS, ...MODERATION_ACTIONS }

/** Who or what a queued action is about (a member, an invitee, a report's subject), if anyone. */
export function actionTarget(payload: unknown): string | null {
  const p = (payload ?? {}) as { did?: unknown; invitee?: unknown; key?: unknown }
  const target = p.did ?? p.invitee ?? p.key
  return typeof target === 'string' ? target : null
}

/** Whether a stored row names an action this version knows. */
export const isActionKind = (kind: string): kind is ActionKind => Object.hasOwn(ACTIONS, kind)

/**
 * The contract's action as queued by `accountDid`: kind and payload apart, and what the
 * core chooses (a new event's record key, who takes a subject) chosen now.
 */
export function queuedAction(action: RequestedAction, accountDid: string): { kind: ActionKind; payload: ActionPayloads[ActionKind] } {
  if (action.kind === 'event.create') return { kind: action.kind, payload: { event: action.event, rkey: TID.nextStr() } }
  if (action.kind === 'subject.event' && action.event === 'assign') {
    const { kind, ...payload } = action
    return { kind, payload: { ...payload, by: accountDid } }
  }
  const { kind, ...payload } = action
  return { kind, payload }
}

/** One action ready for the outbox: its payload, label and cached effect (the outbox stores the payload as JSON). */
export function prepareAction<K extends ActionKind>(groupDid: string, kind: K, payload: ActionPayloads[K]) {
  const spec: ActionSpec<K> = ACTIONS[kind]
  return { groupDid, kind, payload, label: spec.label(payload), applyToCache: (tx: Tx, outboxId: number) => spec.applyToCache(tx, groupDid, payload, outboxId) }
}

/**
 * The payload of a row the outbox stored, once parsed with its kind's schema
 * (outbox/queued-payloads.ts). The one place a stored payload is typed again.
 */
const storedPayload = <K extends ActionKind>(_kind: K, payload: unknown) => payload as ActionPayloads[K]

/** A still-queued action's cached effect, applied again over a refresh (not one this version cannot read: the outbox fails it). */
export async function reapplyQueued(tx: Tx, groupDid: string, row: { id: number; kind: string; payload: string }): Promise<void> {
  if (!isActionKind(row.kind)) return
  const read = parseStored(QUEUED_PAYLOADS[row.kind], row.payload)
  if (read.ok) await reapply(tx, groupDid, row.kind, row.id, read.payload)
}
const reapply = <K extends ActionKind>(tx: Tx, groupDid: string, kind: K, id: number, payload: unknown) =>
  ACTIONS[kind].applyToCache(tx, groupDid, storedPayload(kind, payload), id)

function handlerFor<K extends ActionKind>(rt: AccountRuntime, kind: K): ActionHandler {
  const spec: ActionSpec<K> = ACTIONS[kind]
  const alreadyApplied = spec.alreadyApplied
  return {
    schema: QUEUED_PAYLOADS[kind]!,
    send: (groupDid, payload, key) => spec.send(rt, groupDid, storedPayload(kind, payload), key),
    conflicts: spec.conflicts as Record<string, string>,
    alreadyApplied: alreadyApplied ? (groupDid, payload) => alreadyApplied(rt, groupDid, storedPayload(kind, payload)) : undefined,
  }
}

/** The outbox's handlers for one account, built from the table above. */
export function actionHandlers(rt: AccountRuntime): Record<string, ActionHandler> {
  return Object.fromEntries(Object.keys(ACTIONS).filter(isActionKind).map((kind) => [kind, handlerFor(rt, kind)]))
}
