import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { recordChange } from '../../../changes.js'
import { refuse } from '../../../errors.js'
import { checkCredentialScopes, checkName, checkReadableBy } from '../../../spaces/space-config.js'
import { groupSpaceAddress, loadSpace, type Space } from '../../../spaces/space.js'
import { putIndexRecord } from '../../../spaces/space-index.js'
import { isWellKnownSpaceType } from '../../../spaces/well-known.js'

/**
 * Changes a space's name or access record (needs `space.configure`); fields left out
 * stay. The index record follows. New `readableBy` and `credentialScopes` apply at once,
 * to credentials already granted too: a group write is checked against the access
 * record as it is when the write arrives.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.updateSpace({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const group = await loadGroup(ctx, input.body.group)
      const address = groupSpaceAddress(group.did, input.body.space)
      const now = new Date().toISOString()

      await ctx.db.transaction().execute(async (tx) => {
        requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'space.configure')
        if (isWellKnownSpaceType(address.type)) throw refuse('WellKnownSpace', `The ${address.type} space is one of the group's well-known spaces, which cannot be changed`)
        const space = await loadSpace(tx, address.uri)
        const { name, readableBy, credentialScopes } = input.body
        const next: Space = {
          ...space,
          name: name === undefined ? space.name : checkName(name),
          readableBy: readableBy === undefined ? space.readableBy : await checkReadableBy(tx, group.did, readableBy),
          credentialScopes: credentialScopes === undefined ? space.credentialScopes : await checkCredentialScopes(tx, group.did, credentialScopes),
          updatedAt: now,
        }
        await tx
          .updateTable('space')
          .set({ name: next.name, readableBy: JSON.stringify(next.readableBy), credentialScopes: JSON.stringify(next.credentialScopes), updatedAt: now })
          .where('uri', '=', space.uri)
          .execute()
        await putIndexRecord(tx, next, now)
        await recordChange(tx, group.did, 'space.updated', space.uri)
      })
      return { encoding: 'application/json', body: {} }
    },
  })
}
export default register
