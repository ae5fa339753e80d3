import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { parseStatus, subjectView } from '../../../moderation/subjects.js'
import { decodeCursor, page } from '../../../pagination.js'
import { refuse } from '../../../errors.js'

/** The cursor is the last item's [createdAt, subjectKey]: first-report order never changes. */
function parseCursor(cursor: string | undefined): [string, string] | undefined {
  const raw = decodeCursor(cursor)
  if (raw === undefined) return undefined
  try {
    const v = JSON.parse(raw) as unknown
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') return [v[0], v[1]]
  } catch {
    // falls through to the refusal
  }
  throw refuse('InvalidRequest', 'Malformed cursor')
}

/**
 * The moderation queue (needs `mod.read`), oldest report first so subjects are handled
 * in the order they arrived; `status` narrows it, e.g. to `open`.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.listSubjects({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const group = await loadGroup(ctx, params.group)
      requireAction(await viewerOf(ctx.db, group.did, auth.credentials.did), 'mod.read')
      const status = params.status === undefined ? undefined : parseStatus(params.status)
      const after = parseCursor(params.cursor)

      let query = ctx.db.selectFrom('subject').selectAll().where('groupDid', '=', group.did)
      if (status) query = query.where('status', '=', status)
      if (after) {
        const [createdAt, key] = after
        query = query.where((eb) => eb.or([eb('createdAt', '>', createdAt), eb.and([eb('createdAt', '=', createdAt), eb('subjectKey', '>', key)])]))
      }
      const rows = await query.orderBy('createdAt').orderBy('subjectKey').limit(params.limit + 1).execute()
      const { items, cursor } = page(rows, params.limit, (r) => JSON.stringify([r.createdAt, r.subjectKey]))
      return { encoding: 'application/json', body: { subjects: items.map(subjectView), ...(cursor ? { cursor } : {}) } }
    },
  })
}
export default register
