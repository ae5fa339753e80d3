import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { invitesTo } from '../../../membership/invites.js'
import { decodeCursor, page } from '../../../pagination.js'
import { json, cursorField } from '../../answers.js'

/**
 * The caller's own outstanding invites across this host's groups (issue 28), oldest
 * first, with each group's name and who invited them: how a person learns of an invite
 * without asking to join first. Only the caller's own are read (the DID comes from their
 * service auth, never from a parameter), so nobody learns whom a group invited.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.listMyInvites({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const after = decodeCursor(params.cursor, ['int'])
      const rows = await invitesTo(ctx.db, auth.credentials.did, after, params.limit + 1, new Date().toISOString())
      const { items, cursor } = page(rows, params.limit, (r) => r.id)
      return json({
        invites: items.map((r) => ({
          uri: r.uri,
          group: r.groupDid,
          handle: r.handle,
          ...(r.displayName ? { displayName: r.displayName } : {}),
          joinPolicy: r.joinPolicy,
          ...(r.createdBy ? { invitedBy: r.createdBy } : {}),
          createdAt: r.createdAt,
          ...(r.expiresAt !== null ? { expiresAt: r.expiresAt } : {}),
          ...(r.message !== null ? { message: r.message } : {}),
        })),
        ...cursorField(cursor),
      })
    },
  })
}
export default register
