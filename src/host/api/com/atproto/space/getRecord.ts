import type { RegisterMethod } from '../../../registrar.js'
import { serviceAuth } from '../../../../auth/service-auth.js'
import { refuse } from '../../../../errors.js'
import { readableSpace } from '../../../../spaces/readers.js'
import { recordUri } from '../../../../spaces/records.js'
import { findMemberRecord } from '../../../../spaces/member-records.js'
import { takedownsFor } from '../../../../moderation/takedowns.js'

/**
 * One record in a group's space, for a member whose roles may read the space: the
 * group's own (`repo` = the group, the space index among them), or a member's, as the
 * host last read it from their PDS (`repo` = the member; kept while they are a member).
 * Missing: `RecordNotFound`; so is a record a moderator took down, but for readers
 * holding `mod.read`, who get it marked `takenDown`.
 */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.space.getRecord({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const { repo, collection, rkey } = params
      const space = await readableSpace(ctx, params.space, auth.credentials.did)
      const key = { space: space.uri, repo, collection, rkey }
      const uri = recordUri(key)
      const row =
        repo === space.groupDid
          ? await ctx.db.selectFrom('record').select(['cid', 'value']).where('uri', '=', uri).executeTakeFirst()
          : await findMemberRecord(ctx.db, key)
      if (!row) throw refuse('RecordNotFound', `No record at ${uri}`)
      const { takenDown, moderator } = await takedownsFor(ctx.db, space.groupDid, auth.credentials.did, [uri])
      if (takenDown.has(uri) && !moderator) throw refuse('RecordNotFound', `No record at ${uri}`)
      return {
        encoding: 'application/json',
        body: { uri, cid: row.cid, value: JSON.parse(row.value) as Record<string, unknown>, ...(takenDown.has(uri) ? { takenDown: true } : {}) },
      }
    },
  })
}
export default register
