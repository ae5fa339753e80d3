import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { loadGroup, requireAction, viewerOf } from '../../../groups/access.js'
import { recordChange } from '../../../changes.js'
import { parseJoinPolicy } from '../../../groups/join-policy.js'
import type { GroupTable } from '../../../db/schema.js'

/**
 * Changes the profile or join policy (needs `group.configure`). Fields left out stay as
 * they are; an empty displayName or description clears it. A changed join policy applies
 * to later requests: pending ones stay pending.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.configureGroup({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const { displayName, description, joinPolicy } = input.body
      const group = await loadGroup(ctx, input.body.group)
      const set: Partial<Pick<GroupTable, 'displayName' | 'description' | 'joinPolicy'>> = {}
      if (displayName !== undefined) set.displayName = displayName || null
      if (description !== undefined) set.description = description || null
      if (joinPolicy !== undefined) set.joinPolicy = parseJoinPolicy(joinPolicy)

      await ctx.db.transaction().execute(async (tx) => {
        requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'group.configure')
        if (Object.keys(set).length === 0) return
        await tx.updateTable('group').set(set).where('did', '=', group.did).execute()
        await recordChange(tx, group.did, 'group.configured', group.did)
      })
      return { encoding: 'application/json', body: {} }
    },
  })
}
export default register
