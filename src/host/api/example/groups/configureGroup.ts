import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { requireAction, viewerOf } from '../../../groups/access.js'
import { configureGroup, profileChange } from '../../../groups/configure.js'
import { answerGroupWrite } from '../../group-write.js'
import { syncGroupProfile } from '../../../repo/profile.js'

/**
 * Changes the profile or join policy (needs `group.configure`). Fields left out stay as
 * they are; an empty displayName or description clears it. A changed join policy applies
 * to later requests: pending ones stay pending. A changed name or description is also
 * written to the group's public profile (repo/profile.ts).
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.configureGroup({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const change = profileChange(input.body)
      return answerGroupWrite(ctx, input.body.group, async (tx, group) => {
        requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'group.configure')
        await configureGroup(tx, group.did, change)
        if (change.displayName !== undefined || change.description !== undefined) await syncGroupProfile(tx, ctx.config.hostKey, group.did)
      })
    },
  })
}
export default register
