import type { RegisterMethod } from '../../../registrar.js'
import { resolveDidDocument } from '../../../../identity/resolve-did.js'
import { hostedRepo, repoCollections } from '../../../../repo/reads.js'
import { json } from '../../../answers.js'

/**
 * A group's public repo as a PDS describes an account's (public, no auth): its handle,
 * DID document, the collections that hold records, and whether the document's handle
 * is the group's. A group that has written nothing yet has no collections.
 */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.repo.describeRepo({
    handler: async ({ params }) => {
      const group = await hostedRepo(ctx.db, params.repo)
      const didDoc = await resolveDidDocument(ctx.idResolver, group.did)
      const handleIsCorrect = !!didDoc?.alsoKnownAs?.includes(`at://${group.handle}`)
      return json({ handle: group.handle, did: group.did, didDoc: didDoc ?? {}, collections: await repoCollections(ctx.db, group.did), handleIsCorrect })
    },
  })
}
export default register
