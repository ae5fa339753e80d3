import type { SubjectItem } from '../../../shared/ipc/views.js'
import type { ListShape } from './list-pages.js'
import { ascii } from '../cache/ascii-order.js'

/** What the moderation queue shows: everything not resolved (a resolve still sending stays until confirmed), or one status. */
export type SubjectFilter = 'queue' | 'open' | 'escalated'

export const inView = (s: SubjectItem, filter: SubjectFilter) => (filter === 'queue' ? s.status !== 'resolved' || s.pending : s.status === filter)

/** Reports about an account or a record, most recently active first; searched by the DID, handle, display name or address. */
export const subjectList: ListShape<SubjectItem> = {
  kind: 'subject',
  orderKey: '',
  keyOf: (s) => s.key,
  compare: (a, b) => ascii(b.updatedAt, a.updatedAt) || ascii(a.key, b.key),
  matches: (s, needle) => s.key.toLowerCase().includes(needle) || (s.handle?.includes(needle) ?? false) || (s.displayName?.toLowerCase().includes(needle) ?? false),
}
