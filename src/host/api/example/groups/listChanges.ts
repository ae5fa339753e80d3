import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { groupAndViewer } from '../../../groups/access.js'
import { visibleChangesPage } from '../../../groups/change-visibility.js'
import { refuse } from '../../../errors.js'
import { changeCursor, parseChangeCursor } from '../../../changes.js'
import { groupLogEnd, logStart } from '../../../stream/log-horizon.js'
import { DEFAULT_CHANGE_LOG_DAYS, retentionText } from '../../../change-log-retention.js'
import { json } from '../../answers.js'

/**
 * The group's change log after the cursor, oldest first, for members catching up after
 * being away, showing only what the caller's roles reach (groups/change-visibility.ts).
 *
 * The cursor comes back even when nothing is new, so a client just keeps polling with
 * the last one it got. A full page ends at its last entry; a shorter page reached the
 * end of the log, so its cursor is the log's end (stream/log-horizon.ts groupLogEnd),
 * past any entries hidden from this caller and other groups' entries: they are not
 * scanned again on every poll, the app's "anything new?" check (limit 1) is not stuck
 * behind them, and a quiet group's cursor moves along with the log rather than falling
 * behind what it keeps. The end is read first and the page bounded by it, so a change
 * written meanwhile is not skipped.
 *
 * The log keeps entries for --change-log-days (../../../change-log-retention.ts): a
 * cursor older than its start may have missed entries, and is refused, so the client
 * reads the group whole and carries on with the cursor a call without one gives. A call
 * without a cursor starts at the oldest entry kept.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.listChanges({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const { group, viewer } = await groupAndViewer(ctx, params.group, auth.credentials.did)
      if (!viewer.isMember) throw refuse('Forbidden', 'Only members of this group may read its changes')
      const after = parseChangeCursor(params.cursor)

      const logEnd = Math.max(after, await groupLogEnd(ctx.db, group.did))
      const rows = await visibleChangesPage(ctx.db, group.did, viewer, { after, end: logEnd }, params.limit)
      // After the read: pruning takes only a prefix, so a cursor not below the start now
      // missed nothing in what was just read.
      if (params.cursor !== undefined && after < (await logStart(ctx.db))) {
        throw refuse(
          'InvalidRequest',
          `That cursor is older than this host keeps its change log (${retentionText(ctx.config.changeLogDays ?? DEFAULT_CHANGE_LOG_DAYS)}): read the group whole, then carry on with the cursor listChanges gives without one`,
        )
      }
      const last = rows.length === params.limit ? rows[rows.length - 1]!.seq : logEnd
      return json({
        changes: rows.map((r) => ({ seq: r.seq, kind: r.kind, ...(r.subject !== null ? { subject: r.subject } : {}), createdAt: r.createdAt })),
        cursor: changeCursor(last),
      })
    },
  })
}
export default register
