import type { EventItem, SpaceItem, GroupSummary, InviteItem, JoinRequestPage, MemberItem, OpenJoinRequests, OutboxItem, SubjectPage } from '../../../shared/ipc/views.js'
import { narrowSubjects, type SubjectNarrowing } from '../moderation/queue-order.js'
import { readItems } from '../cache/items.js'
import { UserFacingError } from '../ipc/errors.js'
import type { OutboxRow } from '../outbox/outbox.js'
import type { AccountRuntimes } from '../groups/account-runtimes.js'
import { attendanceHistory, cameTo, doorData } from '../calendar/attendance.js'
import type { AttendanceHistory, DoorData } from '@shared/ipc/door-views.js'
import { cachedSummary } from '../sync/refresh-group.js'
import type { GroupView } from '@node/lexicon/types/example/groups/defs.js'
import { actionTarget } from '../queue/organizer-actions.js'
import { ListPages, type ListPage, type ListQuery, type ListShape } from './list-pages.js'
import { memberList } from './member-list.js'
import { joinRequestList } from './join-request-list.js'
import { inviteList } from './invite-list.js'
import { inView, subjectList, type SubjectFilter } from './subject-list.js'
import { withProfiles } from '../people/profile-cache.js'
import { recordTitles } from '../moderation/record-titles.js'
import { nameLabels } from '../people/name-labels.js'
import type { CacheDb } from '../cache/cache-db.js'
import { readEventImage } from '../calendar/event-image-cache.js'

/** An outbox row as the window shows it. */
export function outboxItem(accountDid: string, row: OutboxRow, label = row.label): OutboxItem {
  return { id: row.id, accountDid, groupDid: row.groupDid, kind: row.kind, label, state: row.state, attempts: row.attempts, detail: row.lastError, target: actionTarget(row.payload), createdAt: row.createdAt, heldUntil: row.heldUntil }
}

/** Outbox rows as the window shows them, each labelled with the people it names by name (people/name-labels.ts). */
export async function outboxItems(cache: CacheDb, accountDid: string, rows: OutboxRow[]): Promise<OutboxItem[]> {
  const labels = await nameLabels(cache, accountDid, rows)
  return rows.map((row, i) => outboxItem(accountDid, row, labels[i]))
}

/**
 * What the window reads: every group's summary and its lists, from the cache only (no
 * network), long lists sorted and searched here so only the rows in view cross.
 */
export class GroupReading {
  private listsPrepared = false
  private closed = false

  constructor(
    private readonly runtimes: AccountRuntimes,
    private readonly lists: ListPages,
  ) {}

  /** Every group of every account, from the cache: no network. */
  async listGroups(): Promise<GroupSummary[]> {
    const out: GroupSummary[] = []
    for (const rt of await this.runtimes.all()) {
      const rows = await rt.cache.selectFrom('group_row').select('did').execute()
      for (const { did } of rows) {
        const summary = await cachedSummary(rt, did)
        if (summary) out.push(summary)
      }
    }
    this.prepareListsOnce(out)
    return out
  }

  /**
   * Once per run, when the window first lists the groups: sorts each group's long lists
   * ahead, one at a time in the background, so the first visit to any of them after the
   * app starts finds them ready instead of reading and sorting thousands on the way.
   */
  private prepareListsOnce(groups: GroupSummary[]) {
    if (this.listsPrepared) return
    this.listsPrepared = true
    const work = groups.slice(0, ListPages.KEPT / 2).flatMap((g) => [
      { g, shape: memberList(g.allRoles) as ListShape<unknown> },
      { g, shape: joinRequestList as ListShape<unknown> },
    ])
    const next = async () => {
      const item = work.shift()
      if (!item || this.closed) return
      const rt = await this.runtimes.get(item.g.accountDid)
      await this.lists.prepare(rt.cache, item.g.accountDid, item.g.did, item.shape).catch(() => {})
      setImmediate(() => void next())
    }
    setImmediate(() => void next())
  }

  /** A page of join requests, oldest first, searched in the core. */
  async joinRequests(accountDid: string, groupDid: string, query: ListQuery): Promise<JoinRequestPage> {
    const cache = await this.runtimes.cacheOf(accountDid, groupDid)
    const { items, total, revision } = await this.lists.matching(cache, accountDid, groupDid, joinRequestList, query.q)
    const open = items.reduce((n, r) => (r.pending ? n : n + 1), 0)
    const page = await withProfiles(cache, items.slice(query.offset, query.offset + query.limit), (r) => r.did)
    return { items: page, offset: query.offset, total, matched: items.length, open, revision }
  }
  /** The DIDs of every open request matching a search: what "select all" selects. */
  async openJoinRequests(accountDid: string, groupDid: string, q?: string): Promise<OpenJoinRequests> {
    const { items, revision } = await this.lists.matching(await this.runtimes.cacheOf(accountDid, groupDid), accountDid, groupDid, joinRequestList, q)
    return { dids: items.filter((r) => !r.pending).map((r) => r.did), revision }
  }
  /** A page of members, sorted and searched in the core so only the rows in view cross. */
  async members(accountDid: string, groupDid: string, query: ListQuery): Promise<ListPage<MemberItem>> {
    // Only the group's role names are needed (the list sorts by them): the kept view has
    // them, without building the whole summary on every page.
    const rt = await this.runtimes.get(accountDid)
    const row = await rt.cache.selectFrom('group_row').select('view').where('did', '=', groupDid).executeTakeFirst()
    if (!row) throw new UserFacingError('GroupNotAdded', 'That group is not in this account’s list.')
    const roles = (JSON.parse(row.view) as GroupView).roles ?? []
    const page = await this.lists.page(rt.cache, accountDid, groupDid, memberList(roles.map((r) => r.name)), query)
    return { ...page, items: await withProfiles(rt.cache, page.items, (m) => m.did) }
  }
  /** A page of outstanding invites, newest first, searched in the core. */
  async invites(accountDid: string, groupDid: string, query: ListQuery): Promise<ListPage<InviteItem>> {
    const cache = await this.runtimes.cacheOf(accountDid, groupDid)
    const page = await this.lists.page(cache, accountDid, groupDid, inviteList, query)
    return { ...page, items: await withProfiles(cache, page.items, (i) => i.invitee) }
  }
  /** A page of the moderation queue (or of one status in it), with how many are open and escalated. */
  async subjects(accountDid: string, groupDid: string, query: ListQuery & { status: SubjectFilter } & SubjectNarrowing): Promise<SubjectPage> {
    const cache = await this.runtimes.cacheOf(accountDid, groupDid)
    const { items, revision } = await this.lists.matching(cache, accountDid, groupDid, subjectList, query.q)
    const queue = items.filter((s) => inView(s, 'queue'))
    const shown = narrowSubjects(query.status === 'queue' ? queue : items.filter((s) => inView(s, query.status)), query)
    let open = 0
    let escalated = 0
    for (const s of queue) {
      if (s.status === 'open') open++
      else if (s.status === 'escalated') escalated++
    }
    const page = await withProfiles(cache, shown.slice(query.offset, query.offset + query.limit), (s) => ('did' in s.subject ? s.subject.did : null))
    const titles = await recordTitles(cache, groupDid, page.flatMap((s) => ('uri' in s.subject ? [s.subject.uri] : [])))
    const withTitles = page.map((s) => ({ ...s, record: 'uri' in s.subject ? (titles.get(s.subject.uri) ?? null) : null }))
    return { items: withTitles, offset: query.offset, total: queue.length, matched: shown.length, open, escalated, revision }
  }
  async spaces(accountDid: string, groupDid: string): Promise<SpaceItem[]> {
    return readItems(await this.runtimes.cacheOf(accountDid, groupDid), groupDid, 'space')
  }

  async events(accountDid: string, groupDid: string): Promise<EventItem[]> {
    const cache = await this.runtimes.cacheOf(accountDid, groupDid)
    const events = await readItems<EventItem>(cache, groupDid, 'event')
    const came = await cameTo(cache, groupDid)
    return events.map((e) => ({ ...e, came: came.get(e.rkey) ?? [] })).sort((a, b) => a.startsAt.localeCompare(b.startsAt))
  }

  /** One event image's bytes, from the cache only (calendar/event-image-cache.ts). */
  async eventImage(accountDid: string, groupDid: string, cid: string): Promise<{ url: string } | null> {
    return readEventImage(await this.runtimes.cacheOf(accountDid, groupDid), groupDid, cid)
  }

  /** Door mode for one event: who may come and who is in, from the cache only (calendar/attendance.ts). */
  async door(accountDid: string, groupDid: string, rkey: string): Promise<DoorData> {
    return doorData(await this.runtimes.cacheOf(accountDid, groupDid), groupDid, rkey)
  }

  async attendanceHistory(accountDid: string, groupDid: string, did: string): Promise<AttendanceHistory> {
    return attendanceHistory(await this.runtimes.cacheOf(accountDid, groupDid), groupDid, did)
  }

  /** Every account's queued, refused and waiting actions (sent ones are not shown). */
  async outbox(): Promise<OutboxItem[]> {
    const out: OutboxItem[] = []
    for (const rt of await this.runtimes.all()) {
      out.push(...(await outboxItems(rt.cache, rt.did, await rt.outbox.list())))
    }
    return out
  }

  /** No more background sorting (the caches are about to close). */
  close() {
    this.closed = true
  }
}
