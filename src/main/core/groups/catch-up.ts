import type { Transaction } from 'kysely'
import type { CacheSchema } from '../cache/cache-db.js'
import { putItem, readItem } from '../cache/items.js'
import type { AccountRuntime } from '../session/account-runtime.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { calendarSpace, EVENT_COLLECTION, RSVP_COLLECTION } from '../calendar/calendar-space.js'
import { formatSpaceAddress, parseRecordAddress, spaceRecordAddress } from '../../../shared/space-address.js'
import type { ListName, PartialRead } from './group-sync.js'
import type { ActionKind } from './organizer-actions.js'

/** An entry of a group's change log (lexicons/example/groups/defs.json#change). */
export interface Change {
  seq: number
  kind: string
  subject?: string
  createdAt: string
}

/** An action this app sent and the host took, with what identifies what it touched. */
export interface SentAction {
  id: number
  kind: ActionKind
  payload: Record<string, unknown>
}

type Tx = Transaction<CacheSchema>

/** Pages of the change log read in one catch-up before giving up and reading the group whole. */
const MAX_CHANGE_PAGES = 10
const PAGE = 100

/**
 * The change log from `cursor` to its end: one request when nothing happened. Null when
 * the host no longer knows the cursor (expired, log trimmed, a restored host) or there
 * is more than a catch-up is worth: then the group is read whole.
 */
export async function readChanges(rt: AccountRuntime, groupDid: string, cursor: string): Promise<{ changes: Change[]; cursor: string } | null> {
  const host = await rt.hostOf(groupDid)
  const changes: Change[] = []
  for (let i = 0; i < MAX_CHANGE_PAGES; i++) {
    let res: { changes: Change[]; cursor: string }
    try {
      res = await host.query('example.groups.listChanges', { group: groupDid, limit: PAGE, cursor })
    } catch (err) {
      // A lost cursor, or no longer allowed to read the log (ejected, left): read the group whole.
      if (err instanceof XrpcCallError && (err.error === 'InvalidRequest' || err.status === 403)) return null
      throw err
    }
    changes.push(...res.changes)
    cursor = res.cursor
    if (res.changes.length < PAGE) return { changes, cursor }
  }
  return null
}

/** The kinds of change each action of ours makes in the log (src/host/changes.ts). */
const OWN_CHANGES: Record<ActionKind, readonly string[]> = {
  'joinRequest.decide': ['joinRequest.admitted', 'joinRequest.denied', 'member.joined', 'invite.redeemed'],
  'invite.create': ['invite.created'],
  'invite.revoke': ['invite.revoked'],
  'member.grantRole': ['member.roleGranted'],
  'member.revokeRole': ['member.roleRevoked'],
  'member.eject': ['member.ejected', 'ban.created'],
  // Now used to reopen a resolved subject, which the cache (the queue only) does not
  // hold, so there is no cached effect: its change is read back like anyone else's.
  'subject.update': [],
  // A report has no cached effect (a reporter need not see the queue), so its change is
  // read back like anyone else's: a moderator who reports sees the subject in the queue.
  'report.create': [],
  // A takedown's effect on what members are served (record.takenDown/restored, an
  // ejection) is read back from the host like anyone else's change.
  'subject.event': ['subject.updated'],
  // The first event also makes the calendar space.
  'event.create': ['record.created', 'space.created'],
  'event.update': ['record.updated', 'record.created'],
  'event.delete': ['record.deleted'],
  'event.rsvp': ['record.created', 'record.updated'],
  'membership.accept': ['member.accepted', 'record.created', 'record.updated'],
  'membership.leave': ['member.left', 'member.acceptanceWithdrawn', 'record.deleted'],
  'space.create': ['space.created'],
  'space.update': ['space.updated'],
  'space.delete': ['space.deleted'],
  // Someone asking to join may not read the change log: their group is read whole each pass.
  'membership.request': [],
  'membership.cancelRequest': [],
}

/** The list each action's cached effect lives in (read again when the host refused it). */
export const ACTION_LIST: Record<ActionKind, ListName | null> = {
  'joinRequest.decide': 'requests',
  'invite.create': 'invites',
  'invite.revoke': 'invites',
  'member.grantRole': 'members',
  'member.revokeRole': 'members',
  'member.eject': 'members',
  'subject.update': 'subjects',
  'report.create': 'subjects',
  'subject.event': 'subjects',
  'event.create': 'events',
  'event.update': 'events',
  'event.delete': 'events',
  'event.rsvp': 'events',
  'membership.accept': null,
  'membership.leave': null,
  'space.create': 'spaces',
  'space.update': 'spaces',
  'space.delete': 'spaces',
  'membership.request': null,
  'membership.cancelRequest': null,
}

/** Actions whose cached effect is a row marked to go away once the host confirms. */
const REMOVES: ReadonlySet<ActionKind> = new Set(['joinRequest.decide', 'invite.revoke', 'member.eject', 'event.delete', 'space.delete'])

/** What a change names: the lists it moved, and whether the group view itself moved. */
export function listsNamed(change: Change, me: string): { lists: ListName[]; group: boolean } | 'everything' {
  const [area] = change.kind.split('.')
  const aboutMe = change.subject === me
  switch (area) {
    case 'joinRequest':
      return { lists: change.kind === 'joinRequest.admitted' ? ['requests', 'members'] : ['requests'], group: false }
    case 'member':
      // My own roles moved (or I left): what I may see and do moved with them.
      return aboutMe ? 'everything' : { lists: ['members'], group: false }
    case 'ban':
      return { lists: [], group: false }
    case 'invite':
      return { lists: change.kind === 'invite.redeemed' ? ['invites', 'members', 'requests'] : ['invites'], group: false }
    case 'space':
      return { lists: ['spaces', 'events'], group: false }
    case 'record': {
      // A takedown or restore moves what members are served and the moderation queue's mark.
      if (change.kind === 'record.takenDown' || change.kind === 'record.restored') return { lists: ['events', 'spaces', 'subjects'], group: false }
      const collection = change.subject === undefined ? undefined : parseRecordAddress(change.subject)?.collection
      if (collection === EVENT_COLLECTION || collection === RSVP_COLLECTION) return { lists: ['events'], group: false }
      if (collection === 'example.groups.space') return { lists: ['spaces'], group: false }
      return { lists: [], group: false }
    }
    case 'subject':
      return { lists: ['subjects'], group: false }
    case 'group':
      return { lists: [], group: true }
    default:
      // A kind this app does not know yet: read the group whole rather than miss it.
      return 'everything'
  }
}

/** Whether a change is one of our own sent actions' (its effect is already in the cache). */
function ownChange(change: Change, sent: SentAction[], ids: Map<number, string[]>): SentAction | undefined {
  return sent.find((a) => {
    if (!OWN_CHANGES[a.kind].includes(change.kind)) return false
    const subject = change.subject ?? ''
    return (ids.get(a.id) ?? []).some((id) => subject === id || subject.endsWith(`/${id}`))
  })
}

/**
 * What identifies the things an action touched, as the change log names them: DIDs,
 * record keys, space addresses, report keys, and the host's ids of the join request or
 * invite it was about (read from the cache before they are settled away).
 */
export async function identifiersOf(rt: AccountRuntime, groupDid: string, a: SentAction): Promise<string[]> {
  const p = a.payload
  const ids = [p.did, p.invitee, p.key, p.space].filter((v): v is string => typeof v === 'string' && v.length > 0)
  // Records by their whole address: a member's RSVP has its event's record key, so a key
  // alone would take everyone's answers for our own.
  if (typeof p.rkey === 'string') {
    ids.push(
      a.kind === 'event.rsvp'
        ? spaceRecordAddress(calendarSpace(groupDid), rt.did, RSVP_COLLECTION, p.rkey)
        : spaceRecordAddress(calendarSpace(groupDid), groupDid, EVENT_COLLECTION, p.rkey),
    )
  }
  if (a.kind === 'event.create') ids.push(calendarSpace(groupDid)) // the calendar space, made with the first event
  if (a.kind === 'space.create') ids.push(formatSpaceAddress({ authority: groupDid, type: String(p.type), skey: String(p.skey) }))
  if (a.kind === 'membership.accept' || a.kind === 'membership.leave') ids.push(rt.did)
  const subject = p.subject as { did?: unknown; uri?: unknown } | undefined
  if (typeof subject?.did === 'string') ids.push(subject.did)
  if (typeof subject?.uri === 'string') ids.push(subject.uri)
  if (a.kind === 'joinRequest.decide') {
    const request = await readItem<{ id?: string }>(rt.cache, groupDid, 'joinRequest', String(p.did))
    if (request?.id) ids.push(request.id)
    // Admitting redeems the person's outstanding invite.
    const invite = await readItem<{ uri?: string }>(rt.cache, groupDid, 'invite', String(p.did))
    if (invite?.uri) ids.push(invite.uri)
  }
  if (a.kind === 'invite.revoke') {
    const invite = await readItem<{ uri?: string }>(rt.cache, groupDid, 'invite', String(p.invitee))
    if (invite?.uri) ids.push(invite.uri)
  }
  return ids
}

/**
 * Sorts the changes since the last sync into our own (whose effect is applied from what
 * we sent and what the log says) and everyone else's (whose lists are read again).
 * Returns the partial read still needed, or null when nothing but our own changes came.
 */
export function planCatchUp(changes: Change[], sent: SentAction[], ids: Map<number, string[]>, me: string, cursor: string): { read: PartialRead | 'everything' | null; own: { change: Change; action: SentAction }[] } {
  const lists = new Set<ListName>()
  let group = false
  const own: { change: Change; action: SentAction }[] = []
  // An invite we made is named by its new address, which only the log tells: one
  // invite.created per invite we sent, matched in order.
  const invitesSent = sent.filter((a) => a.kind === 'invite.create')
  for (const change of changes) {
    let action = ownChange(change, sent, ids)
    if (!action && change.kind === 'invite.created' && invitesSent.length) action = invitesSent.shift()
    if (action) {
      own.push({ change, action })
      continue
    }
    const named = listsNamed(change, me)
    if (named === 'everything') return { read: 'everything', own }
    for (const l of named.lists) lists.add(l)
    group ||= named.group
  }
  return { read: lists.size || group ? { lists, group, cursor } : null, own }
}

/**
 * Applies what the host confirmed of our own actions to the cache: rows they marked to
 * go away go, rows they changed stop being pending, and what only the host knew (an
 * admitted member's joining time, a new invite's or event's address) is taken from the
 * change log, so no list is read again for our own work.
 */
export async function settleOwn(tx: Tx, groupDid: string, sent: SentAction[], own: { change: Change; action: SentAction }[]): Promise<void> {
  for (const { change, action } of own) {
    const p = action.payload
    if (action.kind === 'joinRequest.decide' && change.kind === 'member.joined' && p.decision === 'admit') {
      const request = await readItem<{ handle?: string | null }>(tx, groupDid, 'joinRequest', String(p.did))
      const roles = Array.isArray(p.roles) && p.roles.length ? (p.roles as string[]) : ['member']
      await putItem(tx, groupDid, 'member', String(p.did), { did: p.did, handle: request?.handle ?? null, roles: [...roles].sort(), joinedAt: change.createdAt, accepted: false }, null)
    }
    if (action.kind === 'invite.create' && change.kind === 'invite.created' && change.subject) {
      const invite = await readItem<Record<string, unknown>>(tx, groupDid, 'invite', String(p.invitee))
      if (invite) await putItem(tx, groupDid, 'invite', String(p.invitee), { ...invite, uri: change.subject, createdAt: change.createdAt, awaitingInvitee: change.subject.startsWith('pending:') }, action.id)
    }
    if (action.kind === 'event.create' && change.kind === 'record.created' && change.subject === spaceRecordAddress(calendarSpace(groupDid), groupDid, EVENT_COLLECTION, String(p.rkey))) {
      const event = await readItem<Record<string, unknown>>(tx, groupDid, 'event', String(p.rkey))
      if (event) await putItem(tx, groupDid, 'event', String(p.rkey), { ...event, uri: change.subject }, action.id)
    }
  }
  for (const action of sent) {
    const rows = tx.deleteFrom('item').where('groupDid', '=', groupDid).where('pendingAction', '=', action.id)
    if (REMOVES.has(action.kind)) await rows.execute()
    else await tx.updateTable('item').set({ pendingAction: null }).where('groupDid', '=', groupDid).where('pendingAction', '=', action.id).execute()
  }
}
