import { GROUP_LISTS, type GroupChange, type GroupList } from '../../../shared/ipc/contract.js'
import type { OutboxItem } from '../../../shared/ipc/views.js'
import type { ItemKind } from '../cache/items.js'
import type { GroupKey, NoticeDetail } from '../ipc/notices.js'
import type { AccountRuntimes } from '../groups/account-runtimes.js'
import { cachedSummary } from '../sync/refresh-group.js'
import { outboxItems } from './group-reading.js'

/** The cache's item kinds the window shows as lists (an account's own join request is in its group's summary). */
const LIST_OF_KIND: Partial<Record<ItemKind, GroupList>> = {
  member: 'members',
  joinRequest: 'joinRequests',
  invite: 'invites',
  subject: 'subjects',
  event: 'events',
  space: 'spaces',
}

/**
 * What the window is told when a group or the outbox moved, read from the cache as the
 * notice goes out: the group's summary (so the window need not list every group
 * again), the lists whose revision (the trigger-kept `item_revision`, cache migration
 * 002, moved by whatever wrote) moved since the group's last notice, and the outbox
 * rows as they stand. Whoever emits a notice only names the group or the rows.
 */
export class GroupNoticeDetail implements NoticeDetail {
  /** Per account and group, the list revisions its last notice reported. */
  private readonly told = new Map<string, Map<string, number>>()

  constructor(private readonly runtimes: AccountRuntimes) {}

  async groups(keys: GroupKey[]): Promise<GroupChange[]> {
    const out: GroupChange[] = []
    for (const key of keys) out.push(await this.group(key))
    return out
  }

  private async group({ accountDid, groupDid }: GroupKey): Promise<GroupChange> {
    const everything: GroupChange = { accountDid, groupDid, summary: null, lists: [...GROUP_LISTS] }
    const rt = await this.runtimes.opened(accountDid)
    if (!rt) return everything
    const summary = await cachedSummary(rt, groupDid)
    if (!summary) return everything
    const rows = await rt.cache.selectFrom('item_revision').select(['kind', 'n']).where('groupDid', '=', groupDid).execute()
    const now = new Map(rows.map((r) => [r.kind, r.n]))
    const key = `${accountDid} ${groupDid}`
    const before = this.told.get(key)
    this.told.set(key, now)
    // The first notice about a group in this run cannot know what the window last read.
    const lists = before ? rows.filter((r) => before.get(r.kind) !== r.n).flatMap((r) => LIST_OF_KIND[r.kind as ItemKind] ?? []) : [...GROUP_LISTS]
    return { accountDid, groupDid, summary, lists }
  }

  async outboxItems(changed: { accountDid: string; ids: number[] }[]): Promise<OutboxItem[] | null> {
    const out: OutboxItem[] = []
    for (const { accountDid, ids } of changed) {
      const rt = await this.runtimes.opened(accountDid)
      if (!rt) return null
      for (let i = 0; i < ids.length; i += 500) {
        const some = ids.slice(i, i + 500)
        const rows = await rt.outbox.list({ includeDone: true, ids: some })
        if (rows.length !== some.length) return null
        out.push(...(await outboxItems(rt.cache, accountDid, rows)))
      }
    }
    return out
  }
}
