import { TODAY_KINDS, type TodayFilter, type TodayItem, type TodayKind } from '../../../shared/ipc/today-views.js'
import { ascii } from '../cache/ascii-order.js'

/** One item as the caches gave it, with how much its account may do in its group (to choose between two accounts). */
export interface Candidate {
  item: TodayItem
  /** Higher: acts as this account when two reach the same group (the sidebar's rule: most rights first). */
  rights: number
}

/**
 * Each item once: a group two signed-in accounts reach shows its requests and reports to
 * both caches, and the person is one. The account with the most rights there keeps it;
 * equal rights, the first account (the caller passes them in account order).
 */
export function oneEach(candidates: Candidate[]): TodayItem[] {
  const best = new Map<string, Candidate>()
  for (const c of candidates) {
    const seen = best.get(c.item.id)
    if (!seen || c.rights > seen.rights) best.set(c.item.id, c)
  }
  return [...best.values()].map((c) => c.item)
}

/** Oldest first (what waited longest comes first), a stable tie-break by id; or newest first. */
export function ordered(items: TodayItem[], order: TodayFilter['order']): TodayItem[] {
  const sorted = [...items].sort((a, b) => ascii(a.since, b.since) || ascii(a.id, b.id))
  return order === 'newest' ? sorted.reverse() : sorted
}

export const matchesFilter = (item: TodayItem, f: Pick<TodayFilter, 'groupDid' | 'kind'>) =>
  (!f.groupDid || item.groupDid === f.groupDid) && (!f.kind || item.kind === f.kind)

/** What still waits: a decision queued on an item is the person's answer already. */
export const isWaiting = (item: TodayItem) => !item.pending

/** Waiting items per group (most first, then by name) and per kind (in TODAY_KINDS' order, only those with some). */
export function countsOf(items: TodayItem[]) {
  const groups = new Map<string, { groupDid: string; name: string; waiting: number }>()
  const kinds = new Map<TodayKind, number>()
  let waiting = 0
  for (const item of items) {
    const g = groups.get(item.groupDid) ?? { groupDid: item.groupDid, name: item.groupName, waiting: 0 }
    groups.set(item.groupDid, g)
    if (!isWaiting(item)) continue
    waiting++
    g.waiting++
    kinds.set(item.kind, (kinds.get(item.kind) ?? 0) + 1)
  }
  return {
    waiting,
    groups: [...groups.values()].sort((a, b) => b.waiting - a.waiting || a.name.localeCompare(b.name) || ascii(a.groupDid, b.groupDid)),
    kinds: TODAY_KINDS.filter((k) => kinds.has(k)).map((kind) => ({ kind, waiting: kinds.get(kind)! })),
  }
}
