import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { requireAction, viewerOf } from '../../../groups/access.js'
import { configureGroup, profileChange } from '../../../groups/configure.js'
import { parseAvatar } from '../../../groups/avatar.js'
import { answerGroupWrite } from '../../group-write.js'
import { refuse } from '../../../errors.js'
import { syncGroupProfile } from '../../../repo/profile.js'

/**
 * Changes the profile or join policy (needs `group.configure`). Fields left out stay as
 * they are; an empty displayName or description clears it. A changed join policy applies
 * to later requests: pending ones stay pending. `avatar` (base64 PNG, JPEG or WebP, at
 * most 64 KB, its type sniffed: groups/avatar.ts) sets the avatar; `removeAvatar` takes it away.
 * A changed name or description is also written to the group's public profile (repo/profile.ts).
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.configureGroup({
    auth: serviceAuth(ctx),
    handler: async ({ auth, input }) => {
      const change = profileChange(input.body)
      // Checked before the transaction: a bad image is refused without taking the group's lock.
      const { avatar, removeAvatar } = input.body
      if (avatar !== undefined && removeAvatar) throw refuse('InvalidRequest', 'Send avatar or removeAvatar, not both')
      const image = avatar !== undefined ? parseAvatar(avatar) : removeAvatar ? null : undefined
      return answerGroupWrite(ctx, input.body.group, async (tx, group) => {
        requireAction(await viewerOf(tx, group.did, auth.credentials.did), 'group.configure')
        await configureGroup(tx, group.did, change, image)
        if (change.displayName !== undefined || change.description !== undefined || image !== undefined) {
          await syncGroupProfile(tx, ctx.config.hostKey, group.did, { avatarRemoved: image === null })
        }
      })
    },
  })
}
export default register
