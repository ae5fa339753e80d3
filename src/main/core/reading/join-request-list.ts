import type { JoinRequestItem } from '../../../shared/ipc/views.js'
import type { ListShape } from './list-pages.js'
import { ascii } from '../cache/ascii-order.js'

/**
 * Join requests as a queue: whoever asked first is first. Searched by DID, handle or display name (once
 * looked up) or the words of their message (organizers look for "from the meetup").
 */
export const joinRequestList: ListShape<JoinRequestItem> = {
  kind: 'joinRequest',
  orderKey: '',
  keyOf: (r) => r.did,
  compare: (a, b) => ascii(a.createdAt, b.createdAt) || ascii(a.did, b.did),
  matches: (r, needle) => r.did.toLowerCase().includes(needle) || (r.handle?.includes(needle) ?? false) || (r.displayName?.toLowerCase().includes(needle) ?? false) || (r.message?.toLowerCase().includes(needle) ?? false),
}
