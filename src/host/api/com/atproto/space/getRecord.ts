import type { RegisterMethod } from '../../../registrar.js'
import { serviceAuth } from '../../../../auth/service-auth.js'
import { refuse } from '../../../../errors.js'
import { findStoredRecord, readableSpace } from '../../../../spaces/readers.js'
import { recordUri } from '../../../../spaces/records.js'
import { servedRecords } from '../../../../spaces/record-visibility.js'
import { json } from '../../../answers.js'

/**
 * One record in a group's space, for a member whose roles may read the space: the
 * group's own (`repo` = the group, the space index among them), or a member's, as the
 * host last read it from their PDS (`repo` = the member; kept while they are a member).
 * Missing: `RecordNotFound`; so is a record a moderator took down, but for readers
 * holding `mod.read`, who get it marked `takenDown` (spaces/record-visibility.ts).
 */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.space.getRecord({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const { repo, collection, rkey } = params
      const { space, reader } = await readableSpace(ctx, params.space, auth.credentials.did)
      const key = { space: space.uri, repo, collection, rkey }
      const row = await findStoredRecord(ctx.db, space.groupDid, key)
      const [served] = row ? await servedRecords(ctx.db, reader, [row]) : []
      if (!served) throw refuse('RecordNotFound', `No record at ${recordUri(key)}`)
      return json({ uri: served.uri, cid: served.cid, value: JSON.parse(served.value) as Record<string, unknown>, ...(served.takenDown ? { takenDown: true } : {}) })
    },
  })
}
export default register
