import type { SubjectItem } from '../../../shared/ipc/views.js'
import { ascii } from '../cache/ascii-order.js'

/** The queue's filters and orderings beyond status and search (issue 17). */
export interface SubjectNarrowing {
  reasonType?: string
  subjectKind?: 'account' | 'record'
  sort?: 'recent' | 'mostReports' | 'newestReport'
}

/**
 * Narrows and orders the cached queue in the core, as the host's listSubjects would:
 * by a reason type reported, accounts or records, and most reports or newest report
 * first (the default keeps the list's own order: most recently active first); those a
 * moderator pinned come first in every order.
 */
/** Items cached from an older host, or before issue 17, lack the newer fields. */
const reasonsOf = (s: SubjectItem) => (s as Partial<SubjectItem>).reasonTypes ?? []
const newestOf = (s: SubjectItem) => (s as Partial<SubjectItem>).lastReport?.createdAt ?? s.createdAt

export function narrowSubjects(items: SubjectItem[], n: SubjectNarrowing): SubjectItem[] {
  let out = items
  if (n.reasonType) out = out.filter((s) => reasonsOf(s).includes(n.reasonType!))
  if (n.subjectKind) out = out.filter((s) => ('did' in s.subject ? 'account' : 'record') === n.subjectKind)
  if (n.sort === 'mostReports') out = [...out].sort((a, b) => b.reportCount - a.reportCount || ascii(a.key, b.key))
  if (n.sort === 'newestReport') out = [...out].sort((a, b) => ascii(newestOf(b), newestOf(a)) || ascii(a.key, b.key))
  // Pinned first, whatever the order (a stable sort keeps it among the pinned and the rest): the team's agreed top.
  return [...out].sort((a, b) => Number(!!b.pinned) - Number(!!a.pinned))
}
