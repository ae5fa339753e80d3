import type { ModerationEventTable } from '../db/schema.js'
import type * as Defs from '../../node/lexicon/types/example/groups/defs.js'

/**
 * One history entry as moderators read it. A report's reporter is left out for the
 * reported person, as in the report list; everyone else's acts keep their author.
 */
export function historyView(row: ModerationEventTable, showReporter: boolean): Defs.ModerationEventView {
  const data = JSON.parse(row.data) as { note?: string; status?: string; reasonType?: string; reason?: string; ban?: boolean; assignedTo?: string; endAt?: string }
  const hideAuthor = row.kind === 'report' && !showReporter
  return {
    id: row.id,
    event: row.kind,
    ...(data.note ? { note: data.note } : {}),
    ...(data.status ? { status: data.status } : {}),
    ...(data.reasonType ? { reasonType: data.reasonType } : {}),
    ...(data.reason ? { reason: data.reason } : {}),
    ...(data.ban ? { ban: true } : {}),
    ...(data.assignedTo ? { assignedTo: data.assignedTo } : {}),
    ...(data.endAt ? { endAt: data.endAt } : {}),
    ...(hideAuthor ? {} : { createdBy: row.createdBy }),
    createdAt: row.createdAt,
  }
}
