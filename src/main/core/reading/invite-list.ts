import type { InviteItem } from '../../../shared/ipc/views.js'
import type { ListShape } from './list-pages.js'
import { ascii } from '../cache/ascii-order.js'

/**
 * Outstanding invites, newest first (an invite just sent is on top, where the form is);
 * searched by the invitee's DID, handle or display name (once looked up) or the invite's words.
 */
export const inviteList: ListShape<InviteItem> = {
  kind: 'invite',
  orderKey: '',
  keyOf: (i) => i.invitee,
  compare: (a, b) => ascii(b.createdAt, a.createdAt) || ascii(a.invitee, b.invitee),
  matches: (i, needle) => i.invitee.toLowerCase().includes(needle) || (i.handle?.includes(needle) ?? false) || (i.displayName?.toLowerCase().includes(needle) ?? false) || (i.message?.toLowerCase().includes(needle) ?? false),
}
