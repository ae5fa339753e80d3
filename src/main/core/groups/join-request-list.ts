import type { JoinRequestItem } from '../../../shared/ipc/views.js'
import type { ListShape } from './list-pages.js'

/**
 * Join requests as a queue: whoever asked first is first. Searched by DID or by the
 * words of their message (organizers look for "from the meetup").
 */
export const joinRequestList: ListShape<JoinRequestItem> = {
  kind: 'joinRequest',
  orderKey: '',
  sort: (requests) => requests.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.did.localeCompare(b.did)),
  matches: (r, needle) => r.did.toLowerCase().includes(needle) || (r.message?.toLowerCase().includes(needle) ?? false),
}
