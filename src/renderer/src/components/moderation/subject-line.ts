import type { SubjectItem } from '../../../../shared/ipc/views'
import { formatWhen, recordName } from '../../composables/display'

/**
 * A reported record in one line, as what it is (issue 25 point 3): an event by its name
 * and date, a post by its words, a deleted one plainly so; one the app knows nothing of
 * is opened to be seen. Never its at:// address (that is one click away, RecordAddress).
 */
export function recordLine(s: Pick<SubjectItem, 'record' | 'recordPreview' | 'subject'>): string {
  const r = s.record
  if (r) return r.startsAt ? `${r.name} · ${formatWhen(r.startsAt)}` : r.name
  if (s.recordPreview?.gone) return 'Deleted record'
  if (s.recordPreview?.text) return `“${s.recordPreview.text}”`
  if (!('uri' in s.subject)) return ''
  const plain = recordName(s.subject.uri)
  return `${plain[0]!.toUpperCase()}${plain.slice(1)}: open it to see it`
}

/** What kind of thing it is, in a word, for the row's first column. */
export function subjectKind(s: Pick<SubjectItem, 'record' | 'recordPreview' | 'subject'>): string {
  if ('did' in s.subject) return 'Account'
  if (s.record) return 'Event'
  if (s.recordPreview?.text) return 'Post'
  if (s.recordPreview?.gone) return 'Record'
  return 'Post or record'
}
