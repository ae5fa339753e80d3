import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, viewerOf } from '../../../groups/access.js'
import { visibleChanges } from '../../../groups/change-visibility.js'
import { refuse } from '../../../errors.js'
import { changeCursor, parseChangeCursor } from '../../../changes.js'

/**
 * The group's change log after the cursor, oldest first, for members catching up after
 * being away, showing only what the caller's roles reach (groups/change-visibility.ts).
 *
 * The cursor comes back even when nothing is new, so a client just keeps polling with
 * the last one it got. A full page ends at its last entry; a shorter page reached the
 * end of the log, so its cursor is the log's end, past any entries hidden from this
 * caller: they are not scanned again on every poll, and the app's "anything new?" check
 * (limit 1) is not stuck behind them. The end is read first and the page bounded by it,
 * so a change written meanwhile is not skipped.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.listChanges({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const group = await loadGroup(ctx, params.group)
      const viewer = await viewerOf(ctx.db, group.did, auth.credentials.did)
      if (!viewer.isMember) throw refuse('Forbidden', 'Only members of this group may read its changes')
      const after = parseChangeCursor(params.cursor)

      const end = await ctx.db
        .selectFrom('change')
        .select((eb) => eb.fn.max('seq').as('seq'))
        .where('groupDid', '=', group.did)
        .executeTakeFirst()
      const logEnd = Math.max(after, end?.seq ?? 0)
      const rows = await ctx.db
        .selectFrom('change')
        .selectAll()
        .where('groupDid', '=', group.did)
        .where('seq', '>', after)
        .where('seq', '<=', logEnd)
        .where(await visibleChanges(ctx.db, group.did, viewer))
        .orderBy('seq')
        .limit(params.limit)
        .execute()
      const last = rows.length === params.limit ? rows[rows.length - 1]!.seq : logEnd
      return {
        encoding: 'application/json',
        body: {
          changes: rows.map((r) => ({ seq: r.seq, kind: r.kind, ...(r.subject !== null ? { subject: r.subject } : {}), createdAt: r.createdAt })),
          cursor: changeCursor(last),
        },
      }
    },
  })
}
export default register
