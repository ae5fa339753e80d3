import { ref } from 'vue'
import type { Account } from '../../../shared/ipc/contract'
import type { GroupSummary } from '../../../shared/ipc/views'
import { groupName } from './display'

/**
 * The sidebar's groups: each group once, however many signed-in accounts reach it, with
 * the accounts that do (the one with the most rights there first: a group opens as it),
 * pinned ones first, then what needs attention, then by name. `[` `]` follow this order.
 */
export interface SidebarGroup {
  did: string
  name: string
  /** The group as each account that reaches it sees it, the one with the most rights first. */
  reach: GroupSummary[]
  /** How the group opens by default: as `reach[0]`. */
  best: GroupSummary
  /** The most any of those accounts sees waiting (a member sees no queue: the admin's count is the one). */
  pendingRequests: number
  openSubjects: number
  pinned: boolean
}

const ROLE_WEIGHT: Record<string, number> = { owner: 4, admin: 3, moderator: 2, member: 1 }
/** Rights in a group: its highest role, then how many actions the roles allow there. */
const rights = (g: GroupSummary) => Math.max(0, ...g.roles.map((r) => ROLE_WEIGHT[r] ?? 0)) * 1000 + g.actions.length

export function sidebarGroups(groups: GroupSummary[], accounts: Pick<Account, 'did'>[], pinned: ReadonlySet<string>): SidebarGroup[] {
  const accountOrder = new Map(accounts.map((a, i) => [a.did, i]))
  const byGroup = new Map<string, GroupSummary[]>()
  for (const g of groups) {
    if (!accountOrder.has(g.accountDid)) continue
    byGroup.set(g.did, [...(byGroup.get(g.did) ?? []), g])
  }
  const entries = [...byGroup.entries()].map(([did, seen]): SidebarGroup => {
    const reach = [...seen].sort((a, b) => rights(b) - rights(a) || accountOrder.get(a.accountDid)! - accountOrder.get(b.accountDid)!)
    const best = reach[0]!
    return {
      did,
      name: groupName(best),
      reach,
      best,
      pendingRequests: Math.max(...reach.map((g) => g.pendingRequests)),
      openSubjects: Math.max(...reach.map((g) => g.openSubjects)),
      pinned: pinned.has(did),
    }
  })
  const attention = (e: SidebarGroup) => e.pendingRequests + e.openSubjects
  return entries.sort(
    (a, b) => Number(b.pinned) - Number(a.pinned) || attention(b) - attention(a) || a.name.localeCompare(b.name) || a.did.localeCompare(b.did),
  )
}

/**
 * The order the sidebar keeps for this visit (issue 38 point 4): made from the first list,
 * and never changed by counts moving while the person triages, so a group does not move
 * under the pointer or the focus. Only what they ask moves: a group they pin goes to the end
 * of the pinned ones, one they unpin to the end of the list. A group added meanwhile goes at
 * the end of its part; the next visit (the window opened again) orders by attention.
 */
export function keptOrder() {
  let order: string[] = []
  let madeFor: ReadonlySet<string> = new Set()
  return (fresh: SidebarGroup[], pinned: ReadonlySet<string>): SidebarGroup[] => {
    if (order.length === 0) {
      order = fresh.map((e) => e.did)
      madeFor = pinned
      return fresh
    }
    const at = new Map(order.map((did, i) => [did, i]))
    const toggled = (e: SidebarGroup) => madeFor.has(e.did) !== pinned.has(e.did)
    const rest = [...fresh.filter((e) => at.has(e.did) && !toggled(e)).sort((a, b) => at.get(a.did)! - at.get(b.did)!), ...fresh.filter((e) => !at.has(e.did) && !toggled(e))]
    const out = [
      ...rest.filter((e) => e.pinned),
      ...fresh.filter((e) => toggled(e) && e.pinned),
      ...rest.filter((e) => !e.pinned),
      ...fresh.filter((e) => toggled(e) && !e.pinned),
    ]
    order = out.map((e) => e.did)
    madeFor = pinned
    return out
  }
}

const shownOrder = keptOrder()
/** The sidebar's groups in the order it shows them this visit: the switcher's, and `[` `]`'s. */
export const shownSidebarGroups = (groups: GroupSummary[], accounts: Pick<Account, 'did'>[], pinned: ReadonlySet<string>) =>
  shownOrder(sidebarGroups(groups, accounts, pinned), pinned)

/**
 * Pinned groups, by DID (a pin is the person's, whichever account reaches the group),
 * kept in the page's storage as group-sections.ts keeps the last tab.
 */
const STORAGE_KEY = 'convene.pinnedGroups'
const read = () => {
  try {
    const kept: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]')
    return new Set(Array.isArray(kept) ? kept.filter((d): d is string => typeof d === 'string') : [])
  } catch {
    return new Set<string>() // no storage, or something unreadable in it: nothing pinned
  }
}
export const pinnedGroups = ref<ReadonlySet<string>>(read())

export function setPinned(groupDid: string, pin: boolean) {
  const next = new Set(pinnedGroups.value)
  if (pin) next.add(groupDid)
  else next.delete(groupDid)
  pinnedGroups.value = next
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify([...next]))
  } catch {
    // As above: pinned until the window closes.
  }
}
