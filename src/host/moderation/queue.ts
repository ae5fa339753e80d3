import type { Kysely } from 'kysely'
import type { HostDatabaseSchema, SubjectStatus, SubjectTable } from '../db/schema.js'
import { decodeCursor } from '../pagination.js'

export type Sort = 'oldest' | 'mostReports' | 'newestReport'
export const SORTS: readonly Sort[] = ['oldest', 'mostReports', 'newestReport']

const columnOf = (sort: Sort) => (sort === 'mostReports' ? 'reportCount' : sort === 'newestReport' ? 'lastReportedAt' : 'createdAt')

/**
 * The queue's cursor is the last item's sort key and subjectKey: [createdAt, key] for
 * `oldest`, [reportCount, key] for `mostReports`, [lastReportedAt, key] for `newestReport`.
 */
export const parseQueueCursor = (cursor: string | undefined, sort: Sort) =>
  sort === 'mostReports' ? decodeCursor(cursor, ['int', 'string']) : decodeCursor(cursor, ['string', 'string'])

/** lastReportedAt is null only before migration 010 copied the reports in. */
export const subjectKeyOf = (row: SubjectTable, sort: Sort) => [row[columnOf(sort)] ?? '', row.subjectKey] as const

/**
 * A page of the moderation queue: `oldest` runs ascending; the other two sorts put the
 * biggest first, ties by key ascending. `status`, `kind` (an account's key is its DID, a
 * record's its at:// address) and `reasonType` (a report of that type) narrow it.
 */
export function subjectsPage(
  db: Kysely<HostDatabaseSchema>,
  groupDid: string,
  filter: { status?: SubjectStatus; kind?: string; reasonType?: string },
  sort: Sort,
  after: readonly [string | number, string] | undefined,
  limit: number,
): Promise<SubjectTable[]> {
  let query = db.selectFrom('subject').selectAll().where('groupDid', '=', groupDid)
  if (filter.status) query = query.where('status', '=', filter.status)
  if (filter.kind === 'account') query = query.where('subjectKey', 'like', 'did:%')
  if (filter.kind === 'record') query = query.where('subjectKey', 'like', 'at://%')
  if (filter.reasonType !== undefined) {
    const reasonType = filter.reasonType
    query = query.where('subjectKey', 'in', (eb) =>
      eb.selectFrom('report').select('report.subjectKey').where('report.groupDid', '=', groupDid).where('report.reasonType', '=', reasonType),
    )
  }
  const column = columnOf(sort)
  const dir = sort === 'oldest' ? 'asc' : 'desc'
  if (after) {
    const [value, key] = after
    query = query.where((eb) =>
      eb.or([eb(column, dir === 'asc' ? '>' : '<', value as never), eb.and([eb(column, '=', value as never), eb('subjectKey', '>', key)])]),
    )
  }
  return query.orderBy(column, dir).orderBy('subjectKey').limit(limit).execute()
}
