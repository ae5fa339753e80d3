import type { RegisterMethod } from '../../registrar.js'
import { serviceAuthWithDpop } from '../../../auth/service-auth-with-proof.js'
import { loadGroup, viewerOf } from '../../../groups/access.js'
import { refuse } from '../../../errors.js'
import { groupSpaceAddress, loadSpace, writableCollections } from '../../../spaces/space.js'
import { spaceScope } from '../../../spaces/scope.js'
import { json } from '../../answers.js'
import { repoCollectionsFor } from '../../../repo/collections.js'

/**
 * A group credential for one space (spec section 5): a 15-minute access token for the
 * group DID, bound to the key that signed the request's DPoP proof, writing the
 * collections that the space's `credentialScopes` give the caller's roles (`['*']`: all).
 * Roles granted nothing, or a caller who is not a member: `Forbidden`.
 *
 * `repoCollections` are the collections of the group's public repo the caller's roles
 * let them write (`repo.write`: src/host/repo/collections.ts); the credential writes them
 * there with com.atproto.repo.* as well, and its scope names them as `repo:` scopes.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.getGroupAuth({
    auth: serviceAuthWithDpop(ctx),
    handler: async ({ auth, input }) => {
      const group = await loadGroup(ctx, input.body.group)
      const address = groupSpaceAddress(group.did, input.body.space)
      const viewer = await viewerOf(ctx.db, group.did, auth.credentials.did)
      // Before the space lookup, so that non-members learn nothing about which spaces exist.
      if (!viewer.isMember) throw refuse('Forbidden', 'Only members of the group can get a credential for it')
      const space = await loadSpace(ctx.db, address.uri)
      const collections = writableCollections(space, viewer)
      if (!collections.length) {
        throw refuse('Forbidden', `The ${space.type} space grants your roles (${viewer.roles.join(', ') || 'none'}) no group credential`)
      }
      const repoCollections = repoCollectionsFor(viewer)
      const scope = [spaceScope(space, collections), ...repoCollections.map((c) => `repo:${c}`)].join(' ')
      const { token, expiresAt } = await ctx.groupAuth.tokens.mint({
        sub: group.did,
        actor: viewer.did,
        space: space.uri,
        collections,
        scope,
        repoCollections,
        jkt: auth.credentials.jkt,
      })
      return json({
        did: group.did,
        accessJwt: token,
        pds: ctx.config.publicUrl,
        collections,
        repoCollections,
        scope,
        expiresAt: expiresAt.toISOString(),
      })
    },
  })
}
export default register
