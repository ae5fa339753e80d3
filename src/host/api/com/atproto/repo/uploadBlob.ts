import type { Readable } from 'node:stream'
import type { RegisterMethod } from '../../../registrar.js'
import { groupCredentialAuth } from '../../../../auth/group-credential-auth.js'
import { refuse } from '../../../../errors.js'
import { viewerOf } from '../../../../groups/access.js'
import { repoCollectionsFor } from '../../../../repo/collections.js'
import { storeBlob } from '../../../../repo/blobs.js'
import { requireRepoServed } from '../../../../repo/takedown.js'
import { groupTransaction } from '../../../../db/group-lock.js'
import { json } from '../../../answers.js'

/**
 * Uploads an image for the group's public repo (a post's picture, the profile's avatar):
 * for a credential or session that may write some collection there, whose holder still
 * has `repo.write`, while no operator's takedown stands. Answers the blob ref to put in the
 * record; the image is public only once a record names it (repo/blobs.ts).
 */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.repo.uploadBlob({
    auth: groupCredentialAuth(ctx),
    handler: async ({ auth, input, req }) => {
      const grant = auth.credentials
      const live = repoCollectionsFor(await viewerOf(ctx.db, grant.group, grant.actor))
      if (!grant.repoScopes?.length || !live.length) throw refuse('Forbidden', 'This credential may not write in the group’s public repo, so it may not upload images for it')
      // An image for a repo an operator took down could never be published: not kept.
      await requireRepoServed(ctx.db, grant.group)
      const blob = await storeBlob(ctx.db, grant.group, req.headers['content-type'], input.body as Readable, new Date(), (fn) => groupTransaction(ctx.db, grant.group, fn))
      return json({ blob })
    },
  })
}
export default register
