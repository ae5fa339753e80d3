import { sql } from 'kysely'
import type { TodayItem } from '../../../shared/ipc/today-views.js'
import type { EventItem, JoinRequestItem, SubjectItem } from '../../../shared/ipc/views.js'
import type { GroupView } from '@node/lexicon/types/example/groups/defs.js'
import type { CacheDb } from '../cache/cache-db.js'
import { knownHandles } from '../people/list-handles.js'
import type { Candidate } from './today-order.js'

/** What Today reads of one account: its cache, outbox included (an AccountRuntime is one). */
export interface TodaySource {
  did: string
  cache: CacheDb
}

/** An event is on Today from a day before it starts until it starts. */
export const EVENT_WINDOW_MS = 24 * 60 * 60 * 1000

const ROLE_WEIGHT: Record<string, number> = { owner: 4, admin: 3, moderator: 2, member: 1 }

interface GroupInfo {
  name: string
  actions: Set<string>
  rights: number
}

/** Each group of the account as its cached view says: its name and what the account may do there. */
async function groupsOf(cache: CacheDb): Promise<Map<string, GroupInfo>> {
  const rows = await cache.selectFrom('group_row').select(['did', 'view']).execute()
  const handles = await knownHandles(
    cache,
    rows.map((r) => r.did),
  )
  const out = new Map<string, GroupInfo>()
  for (const row of rows) {
    const g = JSON.parse(row.view) as GroupView
    const viewer = g.viewer ?? { roles: [], actions: [] }
    out.set(row.did, {
      name: g.displayName || handles.get(row.did) || row.did,
      actions: new Set(viewer.actions),
      rights: Math.max(0, ...viewer.roles.map((r) => ROLE_WEIGHT[r] ?? 0)) * 1000 + viewer.actions.length,
    })
  }
  return out
}

/**
 * Everything waiting in one account's cache, with no host asked: join requests (for
 * those who admit), reports not resolved (for those who read them) unless someone else
 * has taken one (their "I'm on it" means it is not waiting for this person), reports
 * this account took, events starting within a day, and actions the host refused or the
 * outbox gave up on. One query per list kind over every group at once.
 */
export async function todayCandidates(src: TodaySource, now: number): Promise<Candidate[]> {
  const groups = await groupsOf(src.cache)
  const out: Candidate[] = []
  const push = (groupDid: string, item: Omit<TodayItem, 'groupDid' | 'groupName' | 'accountDid'>) => {
    const g = groups.get(groupDid)
    out.push({ item: { ...item, accountDid: src.did, groupDid, groupName: g?.name ?? groupDid }, rights: g?.rights ?? 0 })
  }

  const rows = await src.cache.selectFrom('item').select(['groupDid', 'kind', 'key', 'view', 'pendingAction']).where('kind', 'in', ['joinRequest', 'subject']).execute()
  for (const row of rows) {
    const g = groups.get(row.groupDid)
    if (!g) continue
    const pending = row.pendingAction !== null
    if (row.kind === 'joinRequest') {
      if (!g.actions.has('admit')) continue
      const r = JSON.parse(row.view) as JoinRequestItem
      push(row.groupDid, {
        id: `joinRequest ${row.groupDid} ${row.key}`,
        kind: 'joinRequest',
        key: r.did,
        since: r.createdAt,
        person: { did: r.did, handle: r.handle ?? null, displayName: null },
        subject: null,
        title: 'Asks to join',
        detail: r.message ?? null,
        startsAt: null,
        pending,
        actions: ['admit', 'deny'],
      })
      continue
    }
    if (!g.actions.has('mod.read')) continue
    const s = JSON.parse(row.view) as SubjectItem
    if (s.status === 'resolved' && !pending) continue
    const hold = s.assignedTo && Date.parse(s.assignedTo.endAt) > now ? s.assignedTo : null
    if (hold && hold.did !== src.did) continue
    const about = 'did' in s.subject ? { did: s.subject.did, handle: s.handle ?? null, displayName: null } : null
    push(row.groupDid, {
      id: `subject ${row.groupDid} ${row.key}`,
      kind: hold ? 'assigned' : 'report',
      key: s.key,
      since: s.createdAt,
      person: about,
      subject: s.subject,
      title: `${s.reportCount === 1 ? '1 report' : `${s.reportCount} reports`}${s.status === 'escalated' ? ', escalated' : ''}`,
      detail: s.lastReport?.reason ?? null,
      startsAt: null,
      pending,
      actions: g.actions.has('mod.resolve') ? ['resolve'] : [],
    })
  }

  // Only events within the day are read whole: a group's calendar may hold years.
  const from = new Date(now).toISOString()
  const to = new Date(now + EVENT_WINDOW_MS).toISOString()
  const events = await src.cache
    .selectFrom('item')
    .select(['groupDid', 'key', 'view'])
    .where('kind', '=', 'event')
    .where(sql<string>`json_extract(view, '$.startsAt')`, '>', from)
    .where(sql<string>`json_extract(view, '$.startsAt')`, '<=', to)
    .execute()
  for (const row of events) {
    if (!groups.has(row.groupDid)) continue
    const e = JSON.parse(row.view) as EventItem
    if (e.takenDown) continue
    push(row.groupDid, {
      id: `event ${row.groupDid} ${row.key}`,
      kind: 'event',
      key: e.rkey,
      since: new Date(Date.parse(e.startsAt) - EVENT_WINDOW_MS).toISOString(),
      person: null,
      subject: null,
      title: e.name,
      detail: e.location ?? null,
      startsAt: e.startsAt,
      pending: false,
      actions: [],
    })
  }

  const failed = await src.cache.selectFrom('outbox').select(['id', 'groupDid', 'label', 'lastError', 'createdAt']).where('state', 'in', ['failed', 'conflict']).execute()
  for (const row of failed) {
    push(row.groupDid, {
      // An account's own: never the same item as another account's.
      id: `failed ${src.did} ${row.id}`,
      kind: 'failed',
      key: String(row.id),
      since: row.createdAt,
      person: null,
      subject: null,
      title: row.label,
      detail: row.lastError,
      startsAt: null,
      pending: false,
      actions: ['retry', 'dismiss'],
    })
  }
  return out
}
