import type { MemberItem } from '../../../shared/ipc/views.js'
import type { ListShape } from './list-pages.js'
import { ascii } from '../cache/ascii-order.js'

/**
 * Members in the order organizers read them: organizers first (in the group's own order
 * of roles), then by when they joined. Searched by DID, handle or display name.
 */
export function memberList(allRoles: string[]): ListShape<MemberItem> {
  const order = new Map(allRoles.map((r, i) => [r, i]))
  const rank = (m: MemberItem) => {
    let best = allRoles.length
    for (const r of m.roles) best = Math.min(best, order.get(r) ?? allRoles.length)
    return best
  }
  return {
    kind: 'member',
    orderKey: allRoles.join('\n'),
    keyOf: (m) => m.did,
    compare: (a, b) => rank(a) - rank(b) || ascii(a.joinedAt, b.joinedAt) || ascii(a.did, b.did),
    matches: (m, needle) => m.did.toLowerCase().includes(needle) || (m.handle?.toLowerCase().includes(needle) ?? false) || (m.displayName?.toLowerCase().includes(needle) ?? false),
  }
}
