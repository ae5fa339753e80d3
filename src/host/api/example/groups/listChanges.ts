import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, viewerOf } from '../../../groups/access.js'
import { decodeCursor, encodeCursor } from '../../../pagination.js'
import { refuse } from '../../../errors.js'

/** The cursor is the seq of the last change the caller has seen; none means from the start. */
function parseSeq(cursor: string | undefined): number {
  const raw = decodeCursor(cursor)
  if (raw === undefined) return 0
  if (!/^\d{1,15}$/.test(raw)) throw refuse('InvalidRequest', 'Malformed cursor')
  return Number(raw)
}

/**
 * The group's change log after the cursor, oldest first, for members catching up after
 * being away. The cursor comes back even when nothing is new, so a client just keeps
 * polling with the last one it got. What moderators handle (`subject.*`: who was
 * reported) is shown only to callers holding `mod.read`; the rest of the members see
 * the roster, role, invite, space and profile changes.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.listChanges({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const group = await loadGroup(ctx, params.group)
      const viewer = await viewerOf(ctx.db, group.did, auth.credentials.did)
      if (!viewer.isMember) throw refuse('Forbidden', "Only members of this group may read its changes")
      const after = parseSeq(params.cursor)

      let query = ctx.db.selectFrom('change').selectAll().where('groupDid', '=', group.did).where('seq', '>', after)
      if (!viewer.actions.has('mod.read')) query = query.where('kind', 'not like', 'subject.%')
      const rows = await query.orderBy('seq').limit(params.limit).execute()
      const last = rows.length ? rows[rows.length - 1]!.seq : after
      return {
        encoding: 'application/json',
        body: {
          changes: rows.map((r) => ({ seq: r.seq, kind: r.kind, ...(r.subject !== null ? { subject: r.subject } : {}), createdAt: r.createdAt })),
          cursor: encodeCursor(last),
        },
      }
    },
  })
}
export default register
