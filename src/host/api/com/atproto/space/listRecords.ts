import type { RegisterMethod } from '../../../registrar.js'
import { serviceAuth } from '../../../../auth/service-auth.js'
import { decodeCursor, page } from '../../../../pagination.js'
import { readableSpace } from '../../../../spaces/readers.js'
import { groupRecords, recordUri } from '../../../../spaces/records.js'
import { listMemberRecords } from '../../../../spaces/member-records.js'
import { servedRecords } from '../../../../spaces/record-visibility.js'
import { json, cursorField } from '../../../answers.js'

/**
 * Records of one repo and collection in a group's space, for a member whose roles may
 * read the space; newest rkey first, as a member's PDS lists them. `repo` = the group:
 * the group's own records (its space index is read this way: collection
 * `example.groups.space`, in the `members` space). `repo` = a member: what they wrote
 * there on their own PDS, as the host last read it (RSVPs in the calendar space, for
 * instance); kept while they are a member. Records a moderator took down are left out,
 * but for readers holding `mod.read`, who get them marked `takenDown`
 * (spaces/record-visibility.ts); the page's cursor still follows the unfiltered order.
 */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.space.listRecords({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const { repo, collection, limit } = params
      const { space, reader } = await readableSpace(ctx, params.space, auth.credentials.did)
      const before = decodeCursor(params.cursor, ['string'])
      const q = { space: space.uri, repo, collection, limit: limit + 1, before }
      const rows = await (repo === space.groupDid ? groupRecords(ctx.db, q) : listMemberRecords(ctx.db, q))
      const { items, cursor } = page(rows, limit, (r) => r.rkey)
      const records = items.map((r) => ({ uri: recordUri({ ...q, rkey: r.rkey }), cid: r.cid, value: JSON.parse(r.value) as Record<string, unknown> }))
      return json({ records: await servedRecords(ctx.db, reader, records), ...cursorField(cursor) })
    },
  })
}
export default register
