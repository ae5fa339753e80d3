import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { decodeCursor, page } from '../../../pagination.js'
import { groupsOfMember, rolesInGroups } from '../../../membership/members.js'
import { json, cursorField } from '../../answers.js'

/**
 * The groups on this host where the caller is a member, with the caller's roles in each
 * (decisions section 6 item 7): how the app finds a person's groups after sign-in
 * without them typing a handle. Only the caller's own memberships are read (the DID
 * comes from their service auth, never from a parameter), so nobody learns another
 * person's groups. Ordered by group DID, a stable key: pages never skip or repeat.
 * Someone ejected, banned or gone no longer has a member row, so the group drops out.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.listMyGroups({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const caller = auth.credentials.did
      const after = decodeCursor(params.cursor, ['string'])
      const rows = await groupsOfMember(ctx.db, caller, after, params.limit + 1)
      const { items, cursor } = page(rows, params.limit, (r) => r.did)
      const rolesOf = await rolesInGroups(ctx.db, caller, items.map((g) => g.did))

      return json({
        groups: items.map((g) => ({
          did: g.did,
          handle: g.handle,
          ...(g.displayName ? { displayName: g.displayName } : {}),
          joinPolicy: g.joinPolicy,
          roles: rolesOf.get(g.did) ?? [],
          joinedAt: g.joinedAt,
          accepted: g.acceptedAt !== null,
        })),
        ...cursorField(cursor),
      })
    },
  })
}
export default register
