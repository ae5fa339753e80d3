import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { groupWhereCallerMay } from '../../../groups/access.js'
import { auditPage } from '../../../audit/audit-log.js'
import { decodeCursor, page } from '../../../pagination.js'
import { json, cursorField } from '../../answers.js'

/**
 * Who did what in a group (issue 25): its change log with the person whose call made
 * each change, newest first, filterable by person, kind and time. Only for those who may
 * configure the group: it names moderators and admins at their work.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.listAuditLog({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const group = await groupWhereCallerMay(ctx, params.group, auth.credentials.did, 'group.configure')
      const before = decodeCursor(params.cursor, ['int'])
      const rows = await auditPage(ctx.db, group.did, params, before, params.limit + 1)
      const { items, cursor } = page(rows, params.limit, (r) => r.seq)
      return json({
        entries: items.map((r) => ({
          seq: r.seq,
          kind: r.kind,
          ...(r.subject !== null ? { subject: r.subject } : {}),
          createdAt: r.createdAt,
          ...(r.actor !== null ? { actor: r.actor } : {}),
          ...(r.via === 'group' ? { asGroup: true } : {}),
        })),
        ...cursorField(cursor),
      })
    },
  })
}
export default register
