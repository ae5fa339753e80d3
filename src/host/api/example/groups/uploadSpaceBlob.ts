import type { Readable } from 'node:stream'
import type { RegisterMethod } from '../../registrar.js'
import { groupCredentialAuth } from '../../../auth/group-credential-auth.js'
import { refuse } from '../../../errors.js'
import { viewerOf } from '../../../groups/access.js'
import { findSpace, writableCollections } from '../../../spaces/space.js'
import { storeSpaceBlob } from '../../../spaces/space-blobs.js'
import { groupTransaction } from '../../../db/group-lock.js'
import { json } from '../../answers.js'

/**
 * Uploads an image for records in one of the group's spaces (an event's image), with a
 * group credential for that space that may create records there, whose holder still may
 * write some collection in it now. Answers the blob ref; a record of that space may then
 * carry it (com.atproto.space.putRecord checks it was uploaded for the space).
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.uploadSpaceBlob({
    auth: groupCredentialAuth(ctx),
    handler: async ({ auth, params, input }) => {
      const grant = auth.credentials
      const granted = grant.spaces.find((s) => s.space === params.space)
      if (!granted || !granted.actions.includes('create') || !granted.collections.length) {
        throw refuse('Forbidden', `This credential may not add records to ${params.space}, so it may not upload images for it`)
      }
      const space = await findSpace(ctx.db, granted.space)
      if (!space || space.groupDid !== grant.group) throw refuse('SpaceNotFound', `The space ${granted.space} no longer exists`)
      if (!writableCollections(space, await viewerOf(ctx.db, grant.group, grant.actor)).length) {
        throw refuse('Forbidden', 'Your roles in the group no longer let you write in this space')
      }
      const blob = await storeSpaceBlob(ctx.db, space, input.body as Readable, new Date(), (fn) => groupTransaction(ctx.db, space.groupDid, fn))
      return json({ blob })
    },
  })
}
export default register
