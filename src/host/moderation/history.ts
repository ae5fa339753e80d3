import type { Kysely } from 'kysely'
import type { HostDatabaseSchema, ModerationEventTable } from '../db/schema.js'
import { encodeCursor } from '../pagination.js'
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

/**
 * A page of a subject's reports and of its history, both newest first, paged together:
 * the cursor holds the lowest report id and history id shown so far (0: that list ended).
 */
export async function subjectPages(db: Kysely<HostDatabaseSchema>, groupDid: string, key: string, after: readonly [number, number] | undefined, limit: number) {
  let reportsQ = db.selectFrom('report').selectAll().where('groupDid', '=', groupDid).where('subjectKey', '=', key)
  let historyQ = db.selectFrom('moderation_event').selectAll().where('groupDid', '=', groupDid).where('subjectKey', '=', key)
  if (after) {
    reportsQ = reportsQ.where('id', '<', after[0])
    historyQ = historyQ.where('id', '<', after[1])
  }
  const reports = await reportsQ.orderBy('id', 'desc').limit(limit + 1).execute()
  const history = await historyQ.orderBy('id', 'desc').limit(limit + 1).execute()
  const moreReports = reports.length > limit
  const moreHistory = history.length > limit
  const shown = { reports: reports.slice(0, limit), history: history.slice(0, limit) }
  const cursor =
    moreReports || moreHistory
      ? encodeCursor([moreReports ? shown.reports[shown.reports.length - 1]!.id : 0, moreHistory ? shown.history[shown.history.length - 1]!.id : 0])
      : undefined
  return { ...shown, cursor }
}
