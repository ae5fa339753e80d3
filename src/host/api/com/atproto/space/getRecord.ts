import type { RegisterMethod } from '../../../registrar.js'
import { serviceAuth } from '../../../../auth/service-auth.js'
import { refuse } from '../../../../errors.js'
import { readableSpace } from '../../../../spaces/readers.js'
import { recordUri } from '../../../../spaces/records.js'

/**
 * One record the host keeps in a group's space (the group's own records, the space
 * index among them), for a member whose roles may read the space. Members' own records
 * are on their PDSes. Missing: `RecordNotFound`.
 */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.space.getRecord({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const { repo, collection, rkey } = params
      const space = await readableSpace(ctx, params.space, auth.credentials.did)
      const uri = recordUri({ space: space.uri, repo, collection, rkey })
      const row = await ctx.db.selectFrom('record').select(['cid', 'value']).where('uri', '=', uri).executeTakeFirst()
      if (!row) throw refuse('RecordNotFound', `No record at ${uri}`)
      return { encoding: 'application/json', body: { uri, cid: row.cid, value: JSON.parse(row.value) as Record<string, unknown> } }
    },
  })
}
export default register
