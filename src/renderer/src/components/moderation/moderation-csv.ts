import type { SubjectDetail, SubjectItem } from '../../../../shared/ipc/views'
import { toCsv } from '../../composables/csv'
import { recordName } from '../../composables/display'
import { EVENT_WORDS, STATUS_WORDS } from './moderation-words'
import { reasonLabel } from './reasons'

/** One subject as the export reads it: its row in the queue (or the resolved list) and its detail from the host. */
export interface ExportedSubject {
  item: SubjectItem
  detail: SubjectDetail
}

export const MODERATION_CSV_HEAD = ['subject', 'subject handle', 'subject DID or address', 'subject status', 'when', 'what', 'status set', 'reason', 'note', 'by handle', 'by name', 'by DID']

/**
 * The moderation history as a spreadsheet reads it: one act a line (oldest first within
 * each subject), with the subject in words and by its key, who acted by handle and name
 * (the DID beside them, never alone), what they did in the view's words, and their note.
 * A subject with no act yet has one line of its own, so every subject is there.
 */
export function moderationHistoryCsv(subjects: ExportedSubject[]): string {
  const rows = subjects.flatMap(({ item, detail }) => {
    const subject = item.subject
    const account = 'did' in subject
    const about = [
      'uri' in subject ? recordName(subject.uri, item.record) : (item.displayName ?? item.handle ?? ''),
      account ? (item.handle ?? '') : '',
      item.key,
      STATUS_WORDS[detail.status] ?? detail.status,
    ]
    if (!detail.history.length) return [[...about, '', '', '', '', '', '', '', '']]
    return [...detail.history]
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .map((h) => [
        ...about,
        h.createdAt,
        EVENT_WORDS[h.event] ?? h.event,
        h.status ? (STATUS_WORDS[h.status] ?? h.status) : '',
        [h.reasonType ? reasonLabel(h.reasonType) : '', h.reason ?? ''].filter(Boolean).join(': '),
        h.note ?? '',
        h.createdBy ? (h.createdByHandle ?? '(handle not known)') : '(hidden)',
        h.createdByName ?? '',
        h.createdBy ?? '',
      ])
  })
  return toCsv(MODERATION_CSV_HEAD, rows)
}
