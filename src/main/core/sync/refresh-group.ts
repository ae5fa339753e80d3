import type { GroupSummary, MyComingEvent } from '../../../shared/ipc/views.js'
import { sql } from 'kysely'
import { knownHandles } from '../people/list-handles.js'
import { knownProfiles, rowProfile } from '../people/profile-cache.js'
import { readItems, replaceItems } from '../cache/items.js'
import type { AccountRuntime } from '../session/account-runtime.js'
import type { HostClient } from '../xrpc/host-client.js'
import { reapplyQueued } from '../queue/organizer-actions.js'
import { ScopePermissions } from '@atproto/oauth-scopes'
import { rpcScope } from '../../../shared/scopes.js'
import { formatSpaceAddress, spaceIndexKey } from '../../../shared/space-address.js'
import { allPages } from '../xrpc/host-pages.js'
import { calendarSpace, EVENT_COLLECTION, membersSpace } from '../calendar/calendar-space.js'
import { XrpcCallError } from '../xrpc/xrpc-error.js'
import { isSubjectAccount, isSubjectRecord, type GroupView, type Subject, type SubjectAccount, type SubjectRecord } from '@node/lexicon/types/example/groups/defs.js'
import type { Record as SpaceIndexRecord } from '@node/lexicon/types/example/groups/space.js'
import type { SyncReporter } from './sync-progress.js'
import { fetchMyRequest, myStanding } from './my-standing.js'
import { MY_REQUEST } from '../membership/my-join-request.js'
import { actionMethodsByAbility } from '../actions/registry.js'
import { fetchCapacities, fetchRsvps, type MemberRsvp } from '../calendar/rsvps.js'
import { fetchEventImages, type EventImage } from '../calendar/event-images.js'
import { dropUnnamedImages, heldImageCids, keepEventImages } from '../calendar/event-image-cache.js'
import { myRsvps } from '../calendar/my-rsvps.js'
import { eventFromRecord } from '../calendar/event-record.js'
import { myComingEvents } from '../calendar/my-coming-events.js'
import { ALL_LISTS, type ListName } from '../cache/list-names.js'
import { fetchAttendance } from '../calendar/attendance.js'

export const subjectKey = (s: SubjectAccount | SubjectRecord) => ('did' in s ? s.did : s.uri)

/** Who has taken a subject ("I'm on it"), as the window shows it, with their handle when verified. */
export const assignmentOf = (s: Pick<Subject, 'assignedTo'>, handles: Map<string, string | null>) =>
  s.assignedTo ? { did: s.assignedTo.did, handle: handles.get(s.assignedTo.did) ?? null, endAt: s.assignedTo.endAt } : null

/** The lexicon's subject union is open: a kind of subject this app does not know is left out. */
export const knownSubjects = (subjects: Subject[]) =>
  subjects.flatMap((sub) => (isSubjectAccount(sub.subject) || isSubjectRecord(sub.subject) ? [{ ...sub, subject: sub.subject }] : []))

const WELL_KNOWN = new Set(['meta', 'members'])

function eventView(r: { uri: string; cid?: string; value: Record<string, unknown>; takenDown?: boolean }, myRsvp: string | null, rsvps: (MemberRsvp & { handle: string | null })[] = [], image: EventImage | null = null, capacity: number | null = null) {
  return {
    image,
    rsvps,
    capacity,
    rkey: r.uri.split('/').pop()!,
    uri: r.uri,
    // Any app's record, read field by field (calendar/event-record.ts): an old free-text `location` too.
    ...eventFromRecord(r.value),
    // Kept in the cache (not shown): an RSVP's strongRef names it when the host cannot be asked.
    cid: r.cid ?? null,
    myRsvp,
    takenDown: r.takenDown ?? false,
  }
}

/**
 * The host methods a group ability lets its holder use besides sending the queued
 * actions (their specs name those): the lists it reads, and configuring the group.
 */
const READS_FOR_ABILITY: Record<string, string[]> = {
  admit: ['example.groups.listJoinRequests'],
  invite: ['example.groups.listInvites'],
  'mod.read': ['example.groups.listSubjects', 'example.groups.getSubject'],
  'group.configure': ['example.groups.configureGroup'],
}
// getSpaceBlob (events' images) and getEventStanding (one's place on a waitlist) are read for every member too (issue 27).
const EVERY_MEMBER = ['example.groups.getGroup', 'example.groups.listMembers', 'example.groups.listChanges', 'example.groups.subscribeChanges', 'com.atproto.space.listRecords', 'example.groups.getSpaceBlob', 'example.groups.getEventStanding']
let sentByAbility: Map<string, string[]> | undefined
const methodsFor = (ability: string) => [...(READS_FOR_ABILITY[ability] ?? []), ...((sentByAbility ??= actionMethodsByAbility()).get(ability) ?? [])]

/**
 * The scopes this account's sign-in lacks for what its roles let it do here: the app
 * offers only what the grant allows, and asks for these at the next sign-in.
 */
async function missingScopes(rt: AccountRuntime, aud: string, actions: string[]): Promise<string[]> {
  const granted = await rt.grantedScope()
  if (granted === undefined) return []
  const permissions = new ScopePermissions(granted)
  const methods = [...EVERY_MEMBER, ...methodsFor(''), ...actions.flatMap(methodsFor)]
  return methods.filter((lxm) => !permissions.allowsRpc({ aud, lxm })).map((lxm) => rpcScope(lxm, aud))
}

interface ListCounts {
  /** The group's lists' revision (see cache migration 003) the counts were taken at. */
  revision: number
  pendingRequests: number
  openSubjects: number
  /** Its events this account goes to, read with the counts: they move with the same revision. */
  myEvents: MyComingEvent[]
}
/**
 * Counts kept per cache file and group. Every notice about a group carries its summary,
 * and the window asks for them all on every new window; counting a queue of 10,000 each time put 20-30 ms
 * on each of those (and on the first screen), though the lists had not changed.
 */
const countsKept = new WeakMap<object, Map<string, ListCounts>>()

/** Pending join requests and open reports, counted in SQL again only when the group's lists moved. */
async function listCounts(rt: AccountRuntime, groupDid: string): Promise<ListCounts> {
  const { n } = await rt.cache
    .selectFrom('item_revision')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.val(0)).as('n'))
    .where('groupDid', '=', groupDid)
    .executeTakeFirstOrThrow()
  const revision = Number(n)
  let kept = countsKept.get(rt.cache)
  if (!kept) countsKept.set(rt.cache, (kept = new Map()))
  const known = kept.get(groupDid)
  if (known?.revision === revision) return known
  // Counted in SQL: a long queue need not be read and parsed whole for two numbers.
  const counted = await rt.cache
    .selectFrom('item')
    .select((eb) => [
      eb.fn.countAll<number>().filterWhere('kind', '=', 'joinRequest').filterWhere('pendingAction', 'is', null).as('pendingRequests'),
      eb.fn.countAll<number>().filterWhere('kind', '=', 'subject').filterWhere(sql<string>`json_extract(view, '$.status')`, '=', 'open').as('openSubjects'),
    ])
    .where('groupDid', '=', groupDid)
    .executeTakeFirstOrThrow()
  const counts = { revision, pendingRequests: Number(counted.pendingRequests), openSubjects: Number(counted.openSubjects), myEvents: await myComingEvents(rt.cache, groupDid, rt.did) }
  kept.set(groupDid, counts)
  return counts
}

async function summarize(rt: AccountRuntime, g: GroupView, hostUrl: string, hostAud: string, syncedAt: string | null): Promise<GroupSummary> {
  const viewer = g.viewer ?? { roles: [], actions: [] }
  const held = g.roles.filter((r) => viewer.roles.includes(r.name))
  const assignable = [...new Set(held.filter((r) => r.actions.some((a) => a === 'role.assign' || a === 'eject')).flatMap((r) => r.assignable))]
  const counts = await listCounts(rt, g.did)
  // Shown only as checked both ways when the group was added (decisions 6.3), never as the host claims it.
  const verified = await knownHandles(rt.cache, [g.did])
  return {
    accountDid: rt.did,
    did: g.did,
    handle: verified.get(g.did) ?? null,
    displayName: g.displayName ?? null,
    description: g.description ?? null,
    joinPolicy: g.joinPolicy,
    hostUrl,
    roles: viewer.roles,
    actions: viewer.actions,
    assignable,
    allRoles: g.roles.map((r) => r.name),
    roleDefinitions: g.roles.map((r) => ({ name: r.name, actions: [...r.actions], assignable: [...r.assignable] })),
    missingScopes: await missingScopes(rt, hostAud, viewer.actions),
    pendingRequests: counts.pendingRequests,
    openSubjects: counts.openSubjects,
    listsRevision: counts.revision,
    syncedAt,
    ...(await myStanding(rt, g.did, viewer.roles.length > 0)),
    avatar: imageUrl(g.avatar),
    myEvents: counts.myEvents,
  }
}

/**
 * The group's avatar as the window may show it: only a data: URL of the three image
 * types the host takes (the host sniffs the bytes; this keeps anything else a host
 * might send, a remote URL included, out of the window).
 */
const imageUrl = (url: string | undefined) => (url && /^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+={0,2}$/.test(url) ? url : null)


async function fetchLists(host: HostClient, g: GroupView, only: ReadonlySet<ListName>, onPage?: (items: number) => void) {
  const group = g.did
  const can = (a: string) => g.viewer?.actions.includes(a) ?? false
  const isMember = (g.viewer?.roles.length ?? 0) > 0
  const want = (list: ListName, allowed: boolean) => allowed && only.has(list)
  const list = { group, limit: 100 }
  const events = want('events', isMember)
    ? allPages(async (cursor) => {
        const res = await host.query('com.atproto.space.listRecords', { space: calendarSpace(group), repo: group, collection: EVENT_COLLECTION, limit: 100, cursor })
        // A moderator is served taken-down events too, marked, so the calendar can say so.
        return { items: res.records.map((r) => ({ uri: r.uri, cid: r.cid, value: r.value as Record<string, string>, takenDown: r.takenDown ?? false })), cursor: res.cursor }
      }, onPage).catch((err: unknown) => {
        // No calendar yet (it is made with the first event), or not readable by this role.
        if (err instanceof XrpcCallError && (err.error === 'SpaceNotFound' || err.error === 'Forbidden')) return []
        throw err
      })
    : Promise.resolve([])
  const spaces = want('spaces', isMember)
    ? allPages(async (cursor) => {
        const res = await host.query('com.atproto.space.listRecords', { space: membersSpace(group), repo: group, collection: 'example.groups.space', limit: 100, cursor })
        return { items: res.records.map((r) => ({ uri: r.uri, value: r.value as unknown as SpaceIndexRecord })), cursor: res.cursor }
      }, onPage)
    : Promise.resolve([])
  const subjects = (status: string) =>
    allPages(async (cursor) => {
      const res = await host.query('example.groups.listSubjects', { ...list, cursor, status })
      return { items: knownSubjects(res.subjects), cursor: res.cursor }
    }, onPage)
  const [requests, invites, members, open, escalated, eventRecords, spaceRecords, myRequest] = await Promise.all([
    want('requests', can('admit')) ? allPages((cursor) => host.query('example.groups.listJoinRequests', { ...list, cursor }).then((r) => ({ items: r.requests, cursor: r.cursor })), onPage) : [],
    want('invites', can('invite')) ? allPages((cursor) => host.query('example.groups.listInvites', { ...list, cursor }).then((r) => ({ items: r.invites, cursor: r.cursor })), onPage) : [],
    want('members', isMember) ? allPages((cursor) => host.query('example.groups.listMembers', { ...list, cursor }).then((r) => ({ items: r.members, cursor: r.cursor })), onPage) : [],
    want('subjects', can('mod.read')) ? subjects('open') : [],
    want('subjects', can('mod.read')) ? subjects('escalated') : [],
    events,
    spaces,
    fetchMyRequest(host, group, isMember),
  ])
  return { requests, invites, members, subjects: [...open, ...escalated], events: eventRecords, spaces: spaceRecords, myRequest }
}

/** What a partial read brings: the lists to read again, whether the group view too, and where the change log ends. */
export interface PartialRead {
  lists: ReadonlySet<ListName>
  /** Read getGroup again (the group was configured, or this account's roles moved). */
  group: boolean
  /** The change log's cursor after the changes this read answers. */
  cursor: string
}

/**
 * Refreshes one group from its host: the group view, then every list the account may
 * see (or, for a catch-up from the change log, only the lists `partial` names), written
 * in one transaction, with still-queued actions re-applied on top so the cache never
 * forgets work the host has not confirmed.
 */
export async function refreshGroup(rt: AccountRuntime, groupDid: string, report?: Pick<SyncReporter, 'phase' | 'read'>, partial?: PartialRead): Promise<GroupSummary> {
  const host = await rt.hostOf(groupDid)
  const stored = await rt.cache.selectFrom('group_row').select(['changeCursor', 'view']).where('did', '=', groupDid).executeTakeFirst()
  // Where the change log ends, found before anything is read: a change made while the group
  // and its lists are read is then read again by the next catch-up (changes apply as reads,
  // so twice does no harm). Found after, such a change counted as read, and what it did
  // stayed missing until the next whole read (seen: an admission, and a rename, sent as a
  // sync began).
  const latest = partial ? partial.cursor : await catchUpCursor(host, groupDid, stored?.changeCursor ?? undefined)
  const g: GroupView = partial && !partial.group && stored ? (JSON.parse(stored.view) as GroupView) : await host.query('example.groups.getGroup', { group: groupDid })
  const only = partial?.lists ?? ALL_LISTS
  report?.phase('reading')
  const lists = await fetchLists(host, g, only, report?.read)
  // Our own answers (from our PDS) and everyone's (from the host: who is coming) come with the events.
  const [mine, everyone] = lists.events.length
    ? await Promise.all([rt.session().then((session) => myRsvps(session, groupDid)), fetchRsvps(host, groupDid)])
    : [new Map<string, string>(), new Map<string, MemberRsvp[]>()]
  // Events' images (issue 27): only CIDs the cache does not hold are fetched; the bytes go to
  // event_image, never on the event rows (so an events list stays small).
  const { images, fetched } = lists.events.length ? await fetchEventImages(host, groupDid, await heldImageCids(rt.cache, groupDid)) : { images: new Map<string, EventImage>(), fetched: new Map<string, string>() }
  // Who came (check-ins at the door), read with the events they belong to.
  const attendance = only.has('events') && lists.events.length ? await fetchAttendance(host, groupDid) : []
  // Capacities the host keeps, for events still to come (calendar/rsvps.ts).
  const coming = lists.events.filter((r) => String(r.value.startsAt ?? '') >= new Date(Date.now() - 86_400_000).toISOString()).map((r) => r.uri.split('/').pop()!)
  const capacities = coming.length ? await fetchCapacities(host, groupDid, coming) : new Map<string, number>()
  // Our own answers that could not be read this time stay as last seen, not shown as none.
  const rsvps = mine ?? new Map((await readItems<{ rkey: string; myRsvp: string | null }>(rt.cache, groupDid, 'event')).flatMap((e) => (e.myRsvp ? [[e.rkey, e.myRsvp] as const] : [])))
  const now = new Date().toISOString()
  report?.phase('saving')
  // Hosts name people by DID (a handle they send is only a claim); handles already verified go on at once
  // (see people/list-handles.ts), so an unchanged row stays unchanged.
  const accountKeys = [
    ...lists.subjects.map((s) => subjectKey(s.subject)).filter((k) => k.startsWith('did:')),
    ...lists.subjects.flatMap((s) => [...(s.assignedTo ? [s.assignedTo.did] : []), ...(s.pinned ? [s.pinned.by] : [])]),
  ]
  const answering = [...everyone.values()].flat().map((a) => a.did)
  const people = [...lists.requests.map((r) => r.did), ...lists.invites.map((i) => i.invitee), ...accountKeys, ...lists.members.map((m) => m.did), ...answering]
  const handles = await knownHandles(rt.cache, people)
  // Profiles already read go on too (people/profile-cache.ts), as handles do.
  const profiles = await knownProfiles(rt.cache, people)
  const face = (did: string) => rowProfile(profiles.get(did))
  await rt.cache.transaction().execute(async (tx) => {
    // Actions the host took while this read was under way (their catch-up waits for this
    // one): the read may be older than they are, so a row of theirs the read does not
    // have is kept until that catch-up settles it (a check-in sent meanwhile left the
    // door list). A row the read has is the host's word, as for any other row.
    const answered = rt.outbox.answeredUntaken(groupDid)
    const held = answered.length ? await tx.selectFrom('item').selectAll().where('groupDid', '=', groupDid).where('pendingAction', 'in', answered).execute() : []
    if (only.has('requests')) await replaceItems(tx, groupDid, 'joinRequest', lists.requests.map((r) => ({ ...r, message: r.message ?? null, handle: handles.get(r.did) ?? null, ...face(r.did) })), (r) => r.did)
    if (only.has('invites')) await replaceItems(
      tx,
      groupDid,
      'invite',
      lists.invites.map((i) => ({ ...i, expiresAt: i.expiresAt ?? null, message: i.message ?? null, awaitingInvitee: i.uri.startsWith('pending:'), handle: handles.get(i.invitee) ?? null, ...face(i.invitee) })),
      (i) => i.invitee,
    )
    if (only.has('members')) await replaceItems(tx, groupDid, 'member', lists.members.map((m) => ({ ...m, handle: handles.has(m.did) ? (handles.get(m.did) ?? null) : (m.handle ?? null), ...face(m.did) })), (m) => m.did)
    if (only.has('events')) {
      await keepEventImages(tx, groupDid, fetched)
      await replaceItems(
        tx,
        groupDid,
        'event',
        lists.events.map((r) => {
          const rkey = r.uri.split('/').pop()!
          return eventView(r, rsvps.get(rkey) ?? null, (everyone.get(rkey) ?? []).map((a) => ({ ...a, handle: handles.get(a.did) ?? null })), images.get(rkey) ?? null, capacities.get(rkey) ?? null)
        }),
        (e) => e.rkey,
      )
    }
    if (only.has('events')) await replaceItems(tx, groupDid, 'attendance', attendance, (a) => a.rkey)
    if (only.has('spaces')) await replaceItems(
      tx,
      groupDid,
      'space',
      lists.spaces.map(({ value: v }) => ({
        uri: formatSpaceAddress({ authority: groupDid, type: v.type, skey: v.skey }),
        type: v.type,
        skey: v.skey,
        name: v.name,
        readableBy: v.readableBy,
        credentialScopes: v.credentialScopes.map((c) => ({ role: c.role, scopes: c.scopes })),
        wellKnown: WELL_KNOWN.has(v.type),
      })),
      spaceIndexKey,
    )
    if (only.has('subjects')) await replaceItems(
      tx,
      groupDid,
      'subject',
      lists.subjects.map((s) => ({ ...s, key: subjectKey(s.subject), handle: handles.get(subjectKey(s.subject)) ?? null, ...face(subjectKey(s.subject)), assignedTo: assignmentOf(s, handles), pinned: s.pinned ? { did: s.pinned.by, handle: handles.get(s.pinned.by) ?? null, at: s.pinned.at } : null })),
      (s) => subjectKey(s.subject),
    )
    await replaceItems(tx, groupDid, 'myJoinRequest', lists.myRequest, () => MY_REQUEST)
    const queued = await tx.selectFrom('outbox').selectAll().where('groupDid', '=', groupDid).where('state', 'in', ['queued', 'sending']).orderBy('id').execute()
    for (const row of queued) await reapplyQueued(tx, groupDid, row)
    for (const row of held) await tx.insertInto('item').values(row).onConflict((oc) => oc.columns(['groupDid', 'kind', 'key']).doNothing()).execute()
    // Images no event names any more (queued pictures' included, now re-applied) go.
    if (only.has('events')) await dropUnnamedImages(tx, groupDid)
    await tx
      .updateTable('group_row')
      .set({ view: JSON.stringify(g), syncedAt: now, ...(latest ? { changeCursor: latest } : {}) })
      .where('did', '=', groupDid)
      .execute()
  })
  return summarize(rt, g, host.host.url, host.host.aud, now)
}

/** The cached summary of a group (shown at once on start, before any network). */
export async function cachedSummary(rt: AccountRuntime, groupDid: string): Promise<GroupSummary | null> {
  const row = await rt.cache.selectFrom('group_row').selectAll().where('did', '=', groupDid).executeTakeFirst()
  if (!row) return null
  return summarize(rt, JSON.parse(row.view) as GroupView, row.hostUrl, row.hostAud, row.syncedAt)
}

/**
 * Walks the change log to its end, before the lists are read whole: every change up to
 * here is reflected in them, and only later ones matter.
 */
async function catchUpCursor(host: HostClient, groupDid: string, cursor: string | undefined): Promise<string | null> {
  for (let i = 0; i < 1000; i++) {
    let res: { changes: unknown[]; cursor: string }
    try {
      res = await host.query('example.groups.listChanges', { group: groupDid, limit: 100, cursor })
    } catch (err) {
      // The host no longer knows the stored cursor (the reason this read is whole): walk
      // from the start, or the bad cursor would be kept and every sync read the group whole.
      if (cursor !== undefined && err instanceof XrpcCallError && err.error === 'InvalidRequest') {
        cursor = undefined
        continue
      }
      // Not allowed to read the log (someone asking to join): no cursor.
      return cursor ?? null
    }
    cursor = res.cursor
    if (res.changes.length < 100) break
  }
  return cursor ?? null
}
