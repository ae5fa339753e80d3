import type { MemberItem } from '../../../shared/ipc/views.js'
import type { ListShape } from './list-pages.js'

/** Members in the order organizers read them, searched by DID or handle. */
export function memberList(allRoles: string[]): ListShape<MemberItem> {
  return {
    kind: 'member',
    orderKey: allRoles.join('\n'),
    sort: (members) => sortMembers(members, allRoles),
    matches: (m, needle) => m.did.toLowerCase().includes(needle) || (m.handle?.toLowerCase().includes(needle) ?? false),
  }
}

/** Organizers first (in the group's own order of roles), then by when they joined. */
export function sortMembers(members: MemberItem[], allRoles: string[]): MemberItem[] {
  const order = new Map(allRoles.map((r, i) => [r, i]))
  const rank = (m: MemberItem) => Math.min(allRoles.length, ...m.roles.map((r) => order.get(r) ?? allRoles.length))
  return members
    .map((m) => ({ m, rank: rank(m) }))
    .sort((a, b) => a.rank - b.rank || a.m.joinedAt.localeCompare(b.m.joinedAt) || a.m.did.localeCompare(b.m.did))
    .map(({ m }) => m)
}
