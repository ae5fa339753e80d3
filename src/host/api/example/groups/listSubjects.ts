import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { groupAndViewer, requireAction } from '../../../groups/access.js'
import { recordPreviews } from '../../../moderation/record-previews.js'
import { parseStatus, subjectViews } from '../../../moderation/subjects.js'
import { page } from '../../../pagination.js'
import { parseQueueCursor, SORTS, subjectKeyOf, subjectsPage, type Sort } from '../../../moderation/queue.js'
import { refuse } from '../../../errors.js'
import { json, cursorField } from '../../answers.js'

/**
 * The moderation queue (needs `mod.read`). By default oldest report first, so subjects
 * are handled in the order they arrived; `sort` puts the most reported (distinct
 * reporters) or the most recently reported first. `status` narrows it, e.g. to `open`;
 * `reasonType` to subjects with a report of that type; `kind` to accounts or records.
 * Each item carries its newest report's words and the reason types reported, and a
 * record in the group's spaces its text or that it is gone (`recordPreview`).
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.listSubjects({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const { group, viewer } = await groupAndViewer(ctx, params.group, auth.credentials.did)
      requireAction(viewer, 'mod.read')
      const status = params.status === undefined ? undefined : parseStatus(params.status)
      const sort = (params.sort ?? 'oldest') as Sort
      if (!SORTS.includes(sort)) throw refuse('InvalidRequest', `Unknown sort "${sort}": use one of ${SORTS.join(', ')}`)
      if (params.kind !== undefined && params.kind !== 'account' && params.kind !== 'record') {
        throw refuse('InvalidRequest', 'kind is account or record')
      }
      const after = parseQueueCursor(params.cursor, sort)

      const rows = await subjectsPage(ctx.db, group.did, { status, kind: params.kind, reasonType: params.reasonType }, sort, after, params.limit + 1)
      const { items, cursor } = page(rows, params.limit, (r) => subjectKeyOf(r, sort))
      const views = await subjectViews(ctx.db, group.did, items, auth.credentials.did)
      // A reported record as what it is, in a line: its text, or that it is gone (issue 25 point 3).
      const previews = await recordPreviews(ctx.db, group.did, viewer, items.map((r, i) => ({ key: r.subjectKey, takenDown: views[i]!.takenDown ?? false })))
      const subjects = views.map((v, i) => {
        const preview = previews.get(items[i]!.subjectKey)
        return preview ? { ...v, recordPreview: preview } : v
      })
      return json({ subjects, ...cursorField(cursor) })
    },
  })
}
export default register
