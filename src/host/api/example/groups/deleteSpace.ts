import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { recordChange } from '../../../changes.js'
import { refuse } from '../../../errors.js'
import { groupSpaceAddress, loadSpace } from '../../../spaces/space.js'
import { deleteIndexRecord } from '../../../spaces/space-index.js'
import { isWellKnownSpaceType } from '../../../spaces/well-known.js'

/**
 * Deletes a space (needs `space.delete`): its index record, every record the host keeps
 * in it, and the space itself. Members' own records in it stay on their PDSes; the
 * host no longer counts them. Credentials granted for it stop working.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.deleteSpace({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const group = await loadGroup(ctx, input.body.group)
      const address = groupSpaceAddress(group.did, input.body.space)

      await ctx.db.transaction().execute(async (tx) => {
        requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'space.delete')
        if (isWellKnownSpaceType(address.type)) throw refuse('WellKnownSpace', `The ${address.type} space is one of the group's well-known spaces, which cannot be deleted`)
        const space = await loadSpace(tx, address.uri)
        await deleteIndexRecord(tx, space)
        await tx.deleteFrom('record').where('space', '=', space.uri).execute()
        await tx.deleteFrom('space').where('uri', '=', space.uri).execute()
        await recordChange(tx, group.did, 'space.deleted', space.uri)
      })
      return { encoding: 'application/json', body: {} }
    },
  })
}
export default register
