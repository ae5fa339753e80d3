import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { groupAndViewer } from '../../../groups/access.js'
import { refuse } from '../../../errors.js'
import { decodeCursor, page } from '../../../pagination.js'
import { membersPage, rolesOfMembers } from '../../../membership/members.js'
import { json, cursorField } from '../../answers.js'

/**
 * Members with their roles, ordered by DID (a stable key, so pages never skip or repeat).
 * Any member may list; others get `Forbidden`, since a group's roster is its members' business.
 *
 * `q` matches a substring of the member's DID only. The host stores no handles (a handle
 * can change at any time and is only trustworthy once verified both ways), and resolving
 * every member's handle on each call would cost a directory lookup per member; clients
 * resolve handles for the people they show, and `handle` is left out of the items.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.listMembers({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const { group, viewer } = await groupAndViewer(ctx, params.group, auth.credentials.did)
      if (!viewer.isMember) throw refuse('Forbidden', 'Only members of this group may list its members')
      const after = decodeCursor(params.cursor, ['string'])
      const rows = await membersPage(ctx.db, group.did, after, params.q?.trim().toLowerCase(), params.limit + 1)
      const { items, cursor } = page(rows, params.limit, (r) => r.did)
      const rolesOf = await rolesOfMembers(ctx.db, group.did, items.map((m) => m.did))

      return json({
        members: items.map((m) => ({ did: m.did, roles: rolesOf.get(m.did) ?? [], joinedAt: m.joinedAt, accepted: m.acceptedAt !== null })),
        ...cursorField(cursor),
      })
    },
  })
}
export default register
