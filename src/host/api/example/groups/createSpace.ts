import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { lastChangeIn, seqField } from '../../../changes.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { withCapHeaders } from '../../../limits/cap-headers.js'
import { checkName, newSpaceAddress } from '../../../spaces/space-config.js'
import { createSpace } from '../../../spaces/space-admin.js'
import { json } from '../../answers.js'

/**
 * Creates a space (needs `space.create`): the space with its access record, and its
 * record in the group's space index (collection `example.groups.space` in the `members`
 * space, rkey `<type>:<skey>`). A space of the same type and skey exists already:
 * `InvalidRequest` (callers read the index first, spec section 4). The well-known types
 * `meta` and `members` are reserved: `InvalidRequest` too, the error createSpace has
 * for bad input (`WellKnownSpace` is for updating or deleting those spaces). A group has at
 * most MAX_SPACES_PER_GROUP spaces: past it, 429 `RateLimitExceeded` until one is deleted.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.createSpace({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input, res }) => {
      const { type, skey, name, readableBy, credentialScopes } = input.body
      const group = await loadGroup(ctx, input.body.group)
      const uri = newSpaceAddress(group.did, type, skey)
      checkName(name)
      // Past the group's bound of spaces (spaces/space-admin.ts): a 429 naming no time.
      const seq = await withCapHeaders(res, () =>
        groupTransaction(ctx.db, group.did, async (tx) => {
          requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'space.create')
          await createSpace(tx, { uri, groupDid: group.did, type, skey }, { name, readableBy, credentialScopes })
          return lastChangeIn(tx)
        }),
      )
      return json({ uri, ...seqField(seq) })
    },
  })
}
export default register
