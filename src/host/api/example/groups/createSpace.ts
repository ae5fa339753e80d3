import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { recordChange } from '../../../changes.js'
import { refuse } from '../../../errors.js'
import { checkCredentialScopes, checkName, checkReadableBy, newSpaceAddress } from '../../../spaces/space-config.js'
import { findSpace, type Space } from '../../../spaces/space.js'
import { putIndexRecord } from '../../../spaces/space-index.js'

/**
 * Creates a space (needs `space.create`): the space with its access record, and its
 * record in the group's space index (collection `example.groups.space` in the `members`
 * space, rkey `<type>:<skey>`). A space of the same type and skey exists already:
 * `InvalidRequest` (callers read the index first, spec section 4). The well-known types
 * `meta` and `members` are reserved: `InvalidRequest` too, the error createSpace has
 * for bad input (`WellKnownSpace` is for updating or deleting those spaces).
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.createSpace({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { type, skey, readableBy, credentialScopes } = input.body
      const group = await loadGroup(ctx, input.body.group)
      const uri = newSpaceAddress(group.did, type, skey)
      const name = checkName(input.body.name)
      const now = new Date().toISOString()

      await ctx.db.transaction().execute(async (tx) => {
        requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'space.create')
        if (await findSpace(tx, uri)) throw refuse('InvalidRequest', `The group already has the space ${uri}; read the space index before creating one`)
        const space: Space = {
          uri,
          groupDid: group.did,
          type,
          skey,
          name,
          readableBy: await checkReadableBy(tx, group.did, readableBy),
          credentialScopes: await checkCredentialScopes(tx, group.did, credentialScopes),
          createdAt: now,
          updatedAt: now,
        }
        await tx
          .insertInto('space')
          .values({ ...space, readableBy: JSON.stringify(space.readableBy), credentialScopes: JSON.stringify(space.credentialScopes) })
          .execute()
        await putIndexRecord(tx, space, now)
        await recordChange(tx, group.did, 'space.created', uri)
      })
      return { encoding: 'application/json', body: { uri } }
    },
  })
}
export default register
