import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { parseStatus, subjectViews } from '../../../moderation/subjects.js'
import { decodeCursor, page } from '../../../pagination.js'
import { refuse } from '../../../errors.js'

type Sort = 'oldest' | 'mostReports' | 'newestReport'
const SORTS: readonly Sort[] = ['oldest', 'mostReports', 'newestReport']

/**
 * The cursor is the last item's sort key and subjectKey: [createdAt, key] for `oldest`,
 * [reportCount, key] for `mostReports`, [lastReportedAt, key] for `newestReport`.
 */
const parseCursor = (cursor: string | undefined, sort: Sort) =>
  sort === 'mostReports' ? decodeCursor(cursor, ['int', 'string']) : decodeCursor(cursor, ['string', 'string'])

/**
 * The moderation queue (needs `mod.read`). By default oldest report first, so subjects
 * are handled in the order they arrived; `sort` puts the most reported (distinct
 * reporters) or the most recently reported first. `status` narrows it, e.g. to `open`;
 * `reasonType` to subjects with a report of that type; `kind` to accounts or records.
 * Each item carries its newest report's words and the reason types reported.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.listSubjects({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const group = await loadGroup(ctx, params.group)
      requireAction(await viewerOf(ctx.db, group.did, auth.credentials.did), 'mod.read')
      const status = params.status === undefined ? undefined : parseStatus(params.status)
      const sort = (params.sort ?? 'oldest') as Sort
      if (!SORTS.includes(sort)) throw refuse('InvalidRequest', `Unknown sort "${sort}": use one of ${SORTS.join(', ')}`)
      if (params.kind !== undefined && params.kind !== 'account' && params.kind !== 'record') {
        throw refuse('InvalidRequest', 'kind is account or record')
      }
      const after = parseCursor(params.cursor, sort)

      let query = ctx.db.selectFrom('subject').selectAll().where('groupDid', '=', group.did)
      if (status) query = query.where('status', '=', status)
      // An account's key is its DID, a record's its at:// address.
      if (params.kind === 'account') query = query.where('subjectKey', 'like', 'did:%')
      if (params.kind === 'record') query = query.where('subjectKey', 'like', 'at://%')
      if (params.reasonType !== undefined) {
        const reasonType = params.reasonType
        query = query.where('subjectKey', 'in', (eb) =>
          eb.selectFrom('report').select('report.subjectKey').where('report.groupDid', '=', group.did).where('report.reasonType', '=', reasonType),
        )
      }
      const column = sort === 'mostReports' ? 'reportCount' : sort === 'newestReport' ? 'lastReportedAt' : 'createdAt'
      // oldest runs ascending; the other two put the biggest first, ties by key ascending.
      const dir = sort === 'oldest' ? 'asc' : 'desc'
      if (after) {
        const [value, key] = after
        query = query.where((eb) =>
          eb.or([eb(column, dir === 'asc' ? '>' : '<', value as never), eb.and([eb(column, '=', value as never), eb('subjectKey', '>', key)])]),
        )
      }
      const rows = await query.orderBy(column, dir).orderBy('subjectKey').limit(params.limit + 1).execute()
      // lastReportedAt is null only before migration 010 copied the reports in.
      const { items, cursor } = page(rows, params.limit, (r) => [r[column] ?? '', r.subjectKey])
      const subjects = await subjectViews(ctx.db, group.did, items, auth.credentials.did)
      return { encoding: 'application/json', body: { subjects, ...(cursor ? { cursor } : {}) } }
    },
  })
}
export default register
