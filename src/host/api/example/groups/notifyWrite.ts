import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup } from '../../../groups/access.js'
import { recordChange } from '../../../changes.js'
import { refuse } from '../../../errors.js'
import { parseSpaceAddress } from '../../../../shared/space-address.js'

const ACCEPTANCE = 'example.groups.acceptance'

/**
 * A member's own PDS announces a record it stored (or deleted) in one of the group's
 * spaces (decisions section 4, "Member writes"). The service auth is minted by that
 * PDS for the writer, so its issuer must be the `repo` written to.
 *
 * A member's write counts; a non-member's is refused with `Forbidden` (spec section 3:
 * the PDS stores it anyway, and a stored write is no proof of membership). Of what
 * members write, the host keeps track of the acceptance alone: `example.groups.acceptance`
 * with rkey `self` marks the member accepted (`listMembers` shows it), its deletion
 * unmarks them. The acceptance names its group through the space's authority, so it
 * counts in whichever of the group's spaces it is written (the app writes it in the
 * members space).
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.notifyWrite({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { space, repo, collection, rkey, action } = input.body
      const writer = auth.credentials.did
      if (writer !== repo) throw refuse('Forbidden', 'Only the author’s own PDS may announce a write to their repo')
      const address = parseSpaceAddress(space)
      if (!address) throw refuse('InvalidRequest', 'space must be a space address: at://<group_did>/space/<space_type>/<skey>')
      const group = await loadGroup(ctx, address.authority)
      const now = new Date().toISOString()

      await ctx.db.transaction().execute(async (tx) => {
        const member = await tx.selectFrom('member').select('acceptedAt').where('groupDid', '=', group.did).where('did', '=', writer).executeTakeFirst()
        if (!member) throw refuse('Forbidden', 'not a member: this group’s spaces take writes from its members only')
        if (collection !== ACCEPTANCE || rkey !== 'self') return

        const accepted = action === 'put'
        // acceptedAt is when the acceptance was last seen; the change log records only
        // the moments the member became accepted or stopped being so.
        await tx.updateTable('member').set({ acceptedAt: accepted ? now : null }).where('groupDid', '=', group.did).where('did', '=', writer).execute()
        if (accepted !== (member.acceptedAt !== null)) {
          await recordChange(tx, group.did, accepted ? 'member.accepted' : 'member.acceptanceWithdrawn', writer)
        }
      })
      return { encoding: 'application/json', body: { accepted: true } }
    },
  })
}
export default register
